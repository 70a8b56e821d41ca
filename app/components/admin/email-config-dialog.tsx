import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { RotateCwIcon, SendIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { CheckboxField, Field, SelectField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Spinner } from '~/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { toast } from '~/components/ui/toaster';
import type { ListPage } from '~/domain/admin/paging';
import {
  OUTBOX_STATUS_LABELS,
  OUTBOX_STATUSES,
  type OutboxRow,
  type OutboxStatus,
  RESEND_REFUSALS,
} from '~/domain/admin/views';
import {
  type EmailConfigFormInput,
  type PublicEmailConfig,
  SMTP_PORT_LABELS,
  SMTP_PORTS,
} from '~/domain/email/email-config';
import { emailTemplateLabel } from '~/domain/email/template-labels';
import { formatDateTimeFr, NBSP } from '~/domain/format';

export const EMAIL_CONFIG_PATH = '/admin/api/configuration-email';
export const EMAILS_PATH = '/admin/api/emails';

type Reply = { submission: SubmissionResult<string[]> };
export type EmailConfigActionData = Reply &
  (
    | { intent: 'save'; ok: true; config: PublicEmailConfig; releasedHeld: number }
    | { intent: 'save'; ok: false; error: string }
    | { intent: 'test'; ok: true; to: string }
    | { intent: 'test'; ok: false; error: string; detail?: string }
  );

const SMTP_PORT_OPTIONS = SMTP_PORTS.map((port) => ({ value: String(port), label: SMTP_PORT_LABELS[port] }));

export interface OutboxData {
  status: OutboxStatus;
  page: ListPage<OutboxRow>;
  counts: Record<OutboxStatus, number>;
  /** The outbox worker of the server that answered (app/server/email/worker.server.ts). */
  worker: { running: boolean; startedAt: string | null };
}

/** The e-mail configuration, a test e-mail, and the outbox. */
export function EmailConfigPanel() {
  const loader = useFetcher<{ config: PublicEmailConfig }>();
  useEffect(() => {
    if (loader.state === 'idle' && !loader.data) loader.load(EMAIL_CONFIG_PATH);
  }, [loader]);
  if (!loader.data) return <Spinner label="Chargement de la configuration…" showLabel />;
  return (
    <div className="flex flex-col gap-6">
      <EmailConfigForm config={loader.data.config} />
      <OutboxView />
    </div>
  );
}

function EmailConfigForm({ config }: { config: PublicEmailConfig }) {
  const fetcher = useFetcher<EmailConfigActionData>();
  const handled = useRef<unknown>(null);
  const result = fetcher.data;
  const busy = fetcher.state !== 'idle';
  const pendingIntent = fetcher.formData?.get('intent');

  useEffect(() => {
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.intent === 'save') {
      if (result.ok) {
        toast.success('Configuration email enregistrée', {
          description:
            result.releasedHeld > 0 ? `${result.releasedHeld} email(s) en attente remis en file d’envoi` : undefined,
        });
      } else toast.error(result.error);
    } else if (result.ok) {
      toast.success('Email de test envoyé', { description: `Destinataire : ${result.to}` });
    } else {
      toast.error(result.error, { description: result.detail });
    }
  }, [fetcher.state, result]);

  // Validated on the server with the domain's schema (parseWithZod): its French messages come back
  // under the fields, and the toast above sums them up.
  const [form, fields] = useForm<EmailConfigFormInput>({
    id: 'email-config',
    lastResult: result?.submission,
    defaultValue: {
      enabled: config.enabled,
      senderEmail: config.senderEmail,
      senderName: config.senderName,
      smtpHost: config.smtpHost,
      smtpPort: String(config.smtpPort),
      smtpUsername: config.smtpUsername,
    },
  });
  const saved = result?.intent === 'save' && result.ok ? result.config : config;
  return (
    <fetcher.Form method="post" action={EMAIL_CONFIG_PATH} className="flex flex-col gap-4" {...getFormProps(form)}>
      <CheckboxField meta={fields.enabled} label="Envoyer un email au client quand le statut de sa commande change" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field meta={fields.senderEmail} label="Adresse de l’expéditeur" type="email" autoComplete="off" />
        <Field meta={fields.senderName} label="Nom de l’expéditeur" />
        <Field meta={fields.smtpHost} label="Serveur SMTP" autoComplete="off" />
        <SelectField meta={fields.smtpPort} label="Port SMTP" options={SMTP_PORT_OPTIONS} />
        <Field meta={fields.smtpUsername} label="Nom d’utilisateur SMTP" autoComplete="off" />
        <Field
          meta={fields.smtpPassword}
          label="Mot de passe SMTP"
          type="password"
          autoComplete="new-password"
          placeholder={saved.smtpPasswordSet ? '•••••••• (enregistré)' : ''}
          hint={
            saved.smtpPasswordSet
              ? 'Laissez vide pour conserver le mot de passe enregistré (même serveur, port et utilisateur).'
              : undefined
          }
        />
      </div>
      <div className="flex justify-end">
        <Button type="submit" name="intent" value="save" disabled={busy}>
          {busy && pendingIntent === 'save' ? 'Enregistrement…' : 'Enregistrer'}
        </Button>
      </div>
      <fieldset className="flex flex-col gap-3 rounded-lg border border-border p-4">
        <legend className="px-1 font-semibold text-sm">Email de test</legend>
        <p className="text-muted-foreground text-sm">
          Envoie un email avec les réglages ci-dessus (enregistrés ou non) pour vérifier la connexion au serveur SMTP.
        </p>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <Field
            className="flex flex-1 flex-col gap-1.5"
            meta={fields.to}
            label="Destinataire du test"
            type="email"
            autoComplete="off"
          />
          <Button type="submit" name="intent" value="test" variant="outline" disabled={busy}>
            <SendIcon aria-hidden="true" />
            {busy && pendingIntent === 'test' ? 'Envoi…' : 'Envoyer un email de test'}
          </Button>
        </div>
      </fieldset>
      <p className="text-sm">
        Signature DKIM (clé et enregistrement DNS à publier) :{' '}
        <a className="text-primary underline underline-offset-4" href="/admin/signature-email">
          régler la signature des e-mails
        </a>
      </p>
    </fetcher.Form>
  );
}

function OutboxView() {
  const [status, setStatus] = useState<OutboxStatus>('sent');
  const [page, setPage] = useState(1);
  const list = useFetcher<OutboxData>();
  const resend = useFetcher<{ ok: boolean; kind?: string; reason?: string }>();
  const { load } = list;

  useEffect(() => {
    load(`${EMAILS_PATH}?${new URLSearchParams({ status, page: String(page) })}`);
  }, [load, status, page]);

  useEffect(() => {
    if (resend.state !== 'idle' || !resend.data) return;
    if (resend.data.ok) {
      toast.success(resend.data.kind === 'retried' ? 'Email remis en file d’envoi' : 'Email renvoyé');
      load(`${EMAILS_PATH}?${new URLSearchParams({ status, page: String(page) })}`);
    } else toast.error(RESEND_REFUSALS[resend.data.reason ?? ''] ?? 'Cet email ne peut pas être renvoyé');
  }, [resend.state, resend.data, load, status, page]);

  const data = list.data;
  return (
    <section aria-labelledby="boite-envoi" className="flex flex-col gap-3">
      <h3 id="boite-envoi" className="font-heading font-semibold text-lg">
        Boîte d’envoi
      </h3>
      {data && !data.worker.running ? (
        <p role="alert" className="text-destructive text-sm">
          L’envoi des emails est arrêté sur ce serveur{NBSP}: les emails restent en file jusqu’à son redémarrage.
        </p>
      ) : null}
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Filtrer les emails</legend>
        {OUTBOX_STATUSES.map((s) => (
          <Button
            key={s}
            size="sm"
            variant={s === status ? 'default' : 'outline'}
            aria-pressed={s === status}
            onClick={() => {
              setStatus(s);
              setPage(1);
            }}
          >
            {OUTBOX_STATUS_LABELS[s]}
            {data ? ` (${data.counts[s]})` : ''}
          </Button>
        ))}
      </fieldset>
      {!data ? (
        <Spinner label="Chargement des emails…" showLabel />
      ) : data.page.rows.length === 0 ? (
        <p className="text-muted-foreground text-sm">Aucun email dans cette catégorie.</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Date</TableHead>
              <TableHead>Destinataire</TableHead>
              <TableHead>Modèle</TableHead>
              <TableHead>Tentatives</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.page.rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell className="whitespace-nowrap">{formatDateTimeFr(row.sentAt ?? row.createdAt)}</TableCell>
                <TableCell>
                  {row.to}
                  {row.lastError ? <p className="text-destructive text-xs">{row.lastError}</p> : null}
                </TableCell>
                <TableCell>
                  {emailTemplateLabel(row.template)}
                  {row.subject ? <span className="block text-muted-foreground text-xs">{row.subject}</span> : null}
                </TableCell>
                <TableCell>{row.attempts}</TableCell>
                <TableCell className="text-right">
                  {row.resendable && (row.status === 'sent' || row.status === 'failed') ? (
                    <resend.Form method="post" action={EMAILS_PATH}>
                      <input type="hidden" name="id" value={row.id} />
                      <Button type="submit" name="intent" value="resend" size="sm" variant="outline">
                        <RotateCwIcon aria-hidden="true" />
                        Renvoyer
                      </Button>
                    </resend.Form>
                  ) : null}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {data && data.page.pageCount > 1 ? (
        <div className="flex items-center justify-between gap-2 text-sm">
          <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Précédent
          </Button>
          <span>
            Page {page} sur {data.page.pageCount}
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={page >= data.page.pageCount}
            onClick={() => setPage((p) => p + 1)}
          >
            Suivant
          </Button>
        </div>
      ) : null}
    </section>
  );
}
