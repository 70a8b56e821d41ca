import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { MailIcon } from 'lucide-react';
import { useFetcher } from 'react-router';
import { FormAlert } from '~/components/auth/form-alert';
import { Field, TextareaField } from '~/components/forms/field';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { ORDER_MESSAGE_LIMITS, type OrderMessage } from '~/domain/admin/order-message';

type ContactResult =
  | { ok: true; to: string; result: SubmissionResult<string[]> }
  | { ok: false; result: SubmissionResult<string[]> };

/**
 * « Contacter le client »: a subject and a message, e-mailed to the order's customer
 * (their answer reaches the shop's contact address) and kept in the order's history. Checked by
 * the server, which answers under each field.
 */
export function OrderContactForm({ orderId, email }: { orderId: string; email: string | null }) {
  const fetcher = useFetcher<ContactResult>();
  const sending = fetcher.state !== 'idle';
  const [form, fields] = useForm<OrderMessage>({
    id: `contact-${orderId}`,
    lastResult: sending ? undefined : fetcher.data?.result,
  });
  const sent = !sending && fetcher.data?.ok ? fetcher.data.to : null;
  if (!email) {
    return (
      <Alert variant="warning">Cette commande n’a pas d’adresse e-mail : contactez le client par téléphone.</Alert>
    );
  }
  return (
    <fetcher.Form
      method="post"
      action={`/admin/api/commandes/${orderId}/message`}
      className="flex flex-col gap-3"
      {...getFormProps(form)}
    >
      <p className="text-muted-foreground text-sm">
        Envoyé à {email} ; sa réponse arrivera à l’adresse de contact de la boutique.
      </p>
      <FormAlert id={form.errorId} errors={form.errors} />
      {sent ? <Alert variant="success">Message envoyé à {sent}.</Alert> : null}
      <Field meta={fields.subject} label="Objet" maxLength={ORDER_MESSAGE_LIMITS.subject} autoComplete="off" />
      <TextareaField meta={fields.message} label="Message" rows={5} maxLength={ORDER_MESSAGE_LIMITS.message} />
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={sending}>
          <MailIcon aria-hidden="true" />
          {sending ? 'Envoi…' : 'Envoyer le message'}
        </Button>
      </div>
    </fetcher.Form>
  );
}
