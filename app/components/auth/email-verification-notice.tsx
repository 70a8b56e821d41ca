import { MailWarningIcon } from 'lucide-react';
import { Form, useNavigation } from 'react-router';
import { Button } from '~/components/ui/button';

/**
 * On /profile while the address is unconfirmed (docs/decisions/010): the customer may order
 * meanwhile; confirming keeps their password safe when they later sign in by magic link. The button
 * posts to /login, which sends the link again (rate limited).
 */
export function EmailVerificationNotice() {
  const navigation = useNavigation();
  const sending = navigation.state !== 'idle' && navigation.formAction === '/login';
  return (
    <div
      role="status"
      className="flex flex-wrap items-center justify-between gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <div className="flex items-start gap-3">
        <MailWarningIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div className="flex flex-col gap-0.5">
          <p className="font-semibold">Confirmez votre adresse e-mail</p>
          <p className="text-sm">
            Nous vous avons envoyé un lien de confirmation. Vous ne l’avez pas reçu ? Vérifiez vos courriers
            indésirables ou demandez-en un nouveau.
          </p>
        </div>
      </div>
      <Form method="post" action="/login">
        <input type="hidden" name="intent" value="resend-verification" />
        <Button type="submit" variant="outline" size="sm" disabled={sending}>
          {sending ? 'Envoi…' : 'Renvoyer l’e-mail'}
        </Button>
      </Form>
    </div>
  );
}
