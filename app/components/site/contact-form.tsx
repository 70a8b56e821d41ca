import {
  getFormProps,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from '@conform-to/react';
import { CircleAlertIcon, LoaderCircleIcon, SendIcon } from 'lucide-react';
import { Form, useNavigation } from 'react-router';
import { company } from '~/domain/company';
import {
  CONTACT_CONSTRAINT,
  CONTACT_MESSAGES,
  CONTACT_SERVICE_LABELS,
  CONTACT_SERVICES,
  HONEYPOT_FIELD,
} from '~/domain/content/contact-fields';
import type { ContactMessageFields } from '~/domain/content/contact-form';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Input } from '../ui/input';
import { Label } from '../ui/label';
import { Textarea } from '../ui/textarea';

export type ContactActionData =
  | { status: 'success'; result: SubmissionResult<string[]>; email: string }
  | { status: 'invalid'; result: SubmissionResult<string[]> }
  | { status: 'error'; result: SubmissionResult<string[]>; reference: string | null; reason: 'server' | 'rate-limit' };

interface ContactFormProps {
  actionData: ContactActionData | undefined;
  defaults: { pro: boolean; subject: string; service: string };
}

/** Splits React's key from the props Conform gives, so that it is not spread into JSX. */
function withoutKey<T extends { key?: string | undefined }>(props: T): Omit<T, 'key'> {
  const { key: _key, ...rest } = props;
  return rest;
}

const selectClass =
  'flex h-10 w-full rounded-md border border-input bg-card px-3 py-2 text-base text-foreground shadow-xs focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-1 aria-invalid:border-destructive md:text-sm';

function FieldError({ id, errors }: { id: string; errors: string[] | undefined }) {
  if (!errors?.length) return null;
  return (
    <p id={id} className="flex items-center gap-1.5 text-destructive text-sm">
      <CircleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
      {errors[0]}
    </p>
  );
}

/**
 * The contact form: idle, sending, success (form cleared) and error states.
 * A plain HTML form underneath: it also works before (or without) JavaScript. The server validates
 * either way and answers with the French messages, shown under the fields.
 */
export function ContactForm({ actionData, defaults }: ContactFormProps) {
  const navigation = useNavigation();
  const sending = navigation.state === 'submitting' && navigation.formMethod?.toUpperCase() === 'POST';
  const [form, fields] = useForm<ContactMessageFields>({
    id: 'formulaire-contact',
    lastResult: sending ? undefined : actionData?.result,
    // Checked by the server only (the route's action): zod stays out of the page's JavaScript.
    constraint: CONTACT_CONSTRAINT,
    defaultValue: {
      subject: defaults.subject,
      service: defaults.service,
      pro: defaults.pro ? 'on' : undefined,
    },
  });

  const status = sending ? 'sending' : (actionData?.status ?? 'idle');

  return (
    <div className="flex flex-col gap-6">
      <div aria-live="polite" role="status" className="empty:hidden">
        {status === 'success' && actionData?.status === 'success' ? (
          <Alert variant="success" role="none" title={CONTACT_MESSAGES.success}>
            <p>
              Merci&#8239;! Nous vous répondons en général sous un jour ouvré. Un accusé de réception part à{' '}
              <strong>{actionData.email}</strong>.
            </p>
          </Alert>
        ) : null}
      </div>
      {status === 'error' && actionData?.status === 'error' ? (
        <Alert variant="danger" title={CONTACT_MESSAGES.error}>
          {actionData.reason === 'rate-limit' ? (
            <p className="text-sm">{CONTACT_MESSAGES.rateLimited}</p>
          ) : (
            <>
              <p className="text-sm">
                Votre message n’a pas pu être enregistré. Vos saisies sont conservées&#8239;: réessayez dans quelques
                instants. Si le problème persiste, écrivez-nous à{' '}
                <a className="font-medium underline" href={`mailto:${company.email}`}>
                  {company.email}
                </a>{' '}
                ou appelez le{' '}
                <a className="font-medium underline" href={company.phoneHref}>
                  {company.phone}
                </a>
                .
              </p>
              {actionData.reference ? (
                <p className="text-xs">Détails techniques&#8239;: incident {actionData.reference}.</p>
              ) : null}
            </>
          )}
        </Alert>
      ) : null}

      <Form
        method="post"
        {...getFormProps(form)}
        className="grid gap-5 sm:grid-cols-2"
        aria-label="Formulaire de contact"
      >
        <div className="flex flex-col gap-2">
          <Label htmlFor={fields.name.id}>
            Nom <RequiredMark />
          </Label>
          <Input {...withoutKey(getInputProps(fields.name, { type: 'text' }))} autoComplete="name" />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={fields.email.id}>
            Adresse email <RequiredMark />
          </Label>
          <Input {...withoutKey(getInputProps(fields.email, { type: 'email' }))} autoComplete="email" />
          <FieldError id={fields.email.errorId} errors={fields.email.errors} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={fields.phone.id}>
            Téléphone <span className="font-normal text-muted-foreground">(facultatif)</span>
          </Label>
          <Input {...withoutKey(getInputProps(fields.phone, { type: 'tel' }))} autoComplete="tel" />
          <FieldError id={fields.phone.errorId} errors={fields.phone.errors} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor={fields.service.id}>
            Prestation concernée <span className="font-normal text-muted-foreground">(facultatif)</span>
          </Label>
          <select {...withoutKey(getSelectProps(fields.service))} className={selectClass}>
            <option value="">Choisir une prestation</option>
            {CONTACT_SERVICES.map((service) => (
              <option key={service} value={service}>
                {CONTACT_SERVICE_LABELS[service]}
              </option>
            ))}
          </select>
          <FieldError id={fields.service.errorId} errors={fields.service.errors} />
        </div>
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Label htmlFor={fields.subject.id}>
            Sujet <RequiredMark />
          </Label>
          <Input {...withoutKey(getInputProps(fields.subject, { type: 'text' }))} />
          <FieldError id={fields.subject.errorId} errors={fields.subject.errors} />
        </div>
        <div className="flex flex-col gap-2 sm:col-span-2">
          <Label htmlFor={fields.message.id}>
            Message <RequiredMark />
          </Label>
          <Textarea {...withoutKey(getTextareaProps(fields.message))} rows={6} />
          <FieldError id={fields.message.errorId} errors={fields.message.errors} />
        </div>
        <div className="flex items-start gap-3 sm:col-span-2">
          <input
            {...withoutKey(getInputProps(fields.pro, { type: 'checkbox' }))}
            className="mt-1 size-4 shrink-0 accent-primary"
          />
          <label htmlFor={fields.pro.id} className="text-sm">
            <span className="font-medium">Demande professionnelle</span>
            <span className="block text-muted-foreground">
              Entreprise, collectivité, association, archives&#8239;: nous vous proposerons un devis adapté au volume.
            </span>
          </label>
        </div>
        {/* Hidden from people (display: none); robots that fill every field give themselves away. */}
        <div className="hidden">
          <label htmlFor="contact-site-web">Ne pas remplir ce champ</label>
          <input id="contact-site-web" type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
        </div>
        <div className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-muted-foreground text-xs">
            <RequiredMark /> champs obligatoires. Vos données servent uniquement à vous répondre (voir notre{' '}
            <a href="/politique-de-confidentialite" className="underline underline-offset-2">
              politique de confidentialité
            </a>
            ).
          </p>
          <Button type="submit" size="lg" disabled={sending} className="min-w-44">
            {sending ? (
              <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
            ) : (
              <SendIcon aria-hidden="true" />
            )}
            {sending ? 'Envoi en cours…' : 'Envoyer le message'}
          </Button>
        </div>
      </Form>
    </div>
  );
}

function RequiredMark() {
  return (
    <span className="text-destructive" aria-hidden="true">
      *
    </span>
  );
}
