import { getFormProps, type SubmissionResult, useForm } from '@conform-to/react';
import { ExternalLinkIcon, FileDownIcon, StickyNoteIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { OrderAddresses } from '~/components/account/order-addresses';
import { OrderStatusBadge, PaymentStatusBadge } from '~/components/account/status-badges';
import { FormAlert } from '~/components/auth/form-alert';
import { CheckboxField, SelectField, TextareaField } from '~/components/forms/field';
import { Button } from '~/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '~/components/ui/table';
import { toast } from '~/components/ui/toaster';
import { DELIVERY_LABELS, PAYMENT_METHOD_LABELS } from '~/domain/account/order-details';
import type { Role } from '~/domain/account/session-user';
import { fill, STATUS_CHANGE_MESSAGES } from '~/domain/admin/messages';
import type { OrderNoteInput, StatusChangeInput } from '~/domain/admin/order-dialog-forms';
import { MAX_NOTE_LENGTH } from '~/domain/admin/timeline';
import type { OrderDetails } from '~/domain/admin/views';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents } from '~/domain/format';
import { businessBuyerLines } from '~/domain/invoices/mentions';
import { ORDER_STATUS_LABELS } from '~/domain/order-status';
import { offeredStatuses } from '~/domain/orders/allowed-transitions';
import { orderChargeRows, orderItemRows } from '~/domain/pricing/item-rows';
import { type Capability, can } from '~/domain/staff/permissions';
import { FileUploadPanel, uploadSupports } from './file-upload-panel';
import { OrderContactForm } from './order-contact-form';
import { type EinvoicingView, OrderEinvoicing } from './order-einvoicing';
import { OrderFilesSection } from './order-files-section';
import {
  CancelOwedNotice,
  CancelRefundFields,
  cancelRefundDefaults,
  DueRefunds,
  OrderMoneyActions,
} from './order-money-forms';
import { OrderWorkshop } from './order-stage-form';
import { ReceptionPanel } from './reception-panel';
import { ResendEmailButton } from './resend-email-button';
import { OrderShipping } from './ship-order';

export type StatusActionData =
  | {
      intent: 'status';
      ok: true;
      changed: boolean;
      orderNumber: string;
      statusLabel: string;
      email:
        | { kind: 'queued'; outboxId: string; recipient: string; recipientName: string }
        | { kind: 'skipped'; reason: string }
        | { kind: 'failed'; error: string };
      creditNote: { kind: 'none' } | { kind: 'issued'; number: string };
      refund: { ok: true; amountCents: number } | { ok: false; message: string } | null;
    }
  | { intent: 'status' | 'note'; ok: false; error: string; submission?: SubmissionResult<string[]> }
  | { intent: 'note'; ok: true; submission: SubmissionResult<string[]> };

export const EMAIL_STATUS_PATH = '/admin/api/emails';
const POLL_MS = 1000;
const POLL_LIMIT_MS = 20_000;

/**
 * The notices after a status change: "Envoi de l'email au client..." while the
 * outbox delivers it, then "Email de notification envoyé à {name}" (description "Statut de
 * commande: {status}") once the SMTP server accepted it, or "L'email n'a pas pu être envoyé".
 */
export async function followStatusEmail(
  email: { outboxId: string; recipientName: string },
  statusLabel: string,
  signal: AbortSignal,
): Promise<void> {
  const id = `status-email-${email.outboxId}`;
  toast.loading(STATUS_CHANGE_MESSAGES.sending, { id });
  const deadline = Date.now() + POLL_LIMIT_MS;
  while (!signal.aborted) {
    let state: { status?: string; lastError?: string | null } = {};
    try {
      const response = await fetch(`${EMAIL_STATUS_PATH}/${encodeURIComponent(email.outboxId)}`, {
        signal,
        headers: { accept: 'application/json' },
      });
      state = response.ok ? ((await response.json()) as typeof state) : {};
    } catch {
      if (signal.aborted) return;
    }
    if (state.status === 'sent') {
      toast.success(fill(STATUS_CHANGE_MESSAGES.sent, { name: email.recipientName }), {
        id,
        description: fill(STATUS_CHANGE_MESSAGES.sentDescription, { status: statusLabel }),
      });
      return;
    }
    if (state.status === 'failed' || state.status === 'held') {
      toast.error(STATUS_CHANGE_MESSAGES.failed, {
        id,
        description:
          state.status === 'held'
            ? 'Le serveur SMTP n’est pas configuré : l’email partira dès que la configuration sera enregistrée.'
            : (state.lastError ?? undefined),
      });
      return;
    }
    if (Date.now() > deadline) {
      toast.info('Email en file d’envoi', {
        id,
        description: 'Le serveur SMTP ne répond pas encore : l’envoi sera retenté automatiquement.',
      });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function StatusForm({ order, canRefund }: { order: OrderDetails; canRefund: boolean }) {
  const fetcher = useFetcher<StatusActionData>();
  const handled = useRef<unknown>(null);

  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    if (result.intent !== 'status') return;
    toast.success(STATUS_CHANGE_MESSAGES.updated, {
      description: `Commande ${result.orderNumber} : ${result.statusLabel}`,
    });
    if (result.refund && !result.refund.ok) toast.error(result.refund.message);
    if (result.creditNote.kind === 'issued') {
      toast.info(fill(STATUS_CHANGE_MESSAGES.creditNoteIssued, { number: result.creditNote.number }));
    }
    if (result.email.kind === 'queued') {
      const controller = new AbortController();
      void followStatusEmail(result.email, result.statusLabel, controller.signal);
    } else if (result.email.kind === 'failed') {
      toast.error(STATUS_CHANGE_MESSAGES.failed, { description: result.email.error });
    }
  }, [fetcher.state, fetcher.data]);

  // Validated on the server (routes/admin/orders.tsx, parseWithZod); the chosen status is read from
  // the form's own state, which shows the cancellation's refund fields.
  const [form, fields] = useForm<StatusChangeInput>({
    // A new id when the status changed elsewhere (a refund, a settlement, another tab): Conform
    // starts the form again from it. Its update() would post the form to the server instead.
    id: `status-${order.id}-${order.status}`,
    lastResult: fetcher.data && 'submission' in fetcher.data ? fetcher.data.submission : undefined,
    defaultValue: { status: order.status, ...cancelRefundDefaults(order) },
    shouldRevalidate: 'onInput',
  });
  const status = fields.status.value ?? order.status;
  // The menu offers what the lifecycle allows from the order's state (allowedTransitions).
  const offered = offeredStatuses(order.status, order.allowed);
  const chosen = order.allowed.status[status as keyof typeof order.allowed.status];
  const askStartBeforePayment = status !== order.status && chosen?.allowed && chosen.needsStartBeforePayment;
  return (
    <fetcher.Form method="post" className="flex flex-col gap-3" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="orderId" value={order.id} />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <SelectField
          meta={fields.status}
          label="Nouveau statut"
          options={offered.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }))}
          className="flex flex-1 flex-col gap-1.5"
        />
        <Button type="submit" disabled={fetcher.state !== 'idle' || status === order.status}>
          {fetcher.state !== 'idle' ? 'Mise à jour…' : 'Mettre à jour le statut'}
        </Button>
      </div>
      {offered.length === 1 ? (
        <p className="text-muted-foreground text-sm">Le statut de cette commande ne peut plus changer.</p>
      ) : null}
      {askStartBeforePayment ? (
        <CheckboxField meta={fields.startBeforePayment} label="Commencer avant le paiement" />
      ) : null}
      {/* Refunding with the cancellation is the refund right's; without it the money is noticed as owed. */}
      {status === 'canceled' && order.money.refundableCents > 0 ? (
        canRefund ? (
          <CancelRefundFields order={order} fields={fields} />
        ) : (
          <CancelOwedNotice order={order} />
        )
      ) : null}
      <FormAlert id={form.errorId} errors={form.errors} />
    </fetcher.Form>
  );
}

function NoteForm({ orderId }: { orderId: string }) {
  const fetcher = useFetcher<StatusActionData>();
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) toast.success('Note ajoutée');
    else toast.error(result.error);
  }, [fetcher.state, fetcher.data]);
  // Validated on the server; a note added answers with the form reset.
  const [form, fields] = useForm<OrderNoteInput>({
    id: `note-${orderId}`,
    lastResult: fetcher.data && 'submission' in fetcher.data ? fetcher.data.submission : undefined,
    shouldRevalidate: 'onInput',
  });
  return (
    <fetcher.Form method="post" className="flex flex-col gap-2" {...getFormProps(form)}>
      <input type="hidden" name="intent" value="note" />
      <input type="hidden" name="orderId" value={orderId} />
      <TextareaField meta={fields.text} label="Ajouter une note interne" rows={2} maxLength={MAX_NOTE_LENGTH} />
      <div className="flex justify-end">
        <Button type="submit" size="sm" variant="outline" disabled={fetcher.state !== 'idle'}>
          <StickyNoteIcon aria-hidden="true" />
          Ajouter la note
        </Button>
      </div>
    </fetcher.Form>
  );
}

function Info({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col">
      <dt className="text-muted-foreground text-xs">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

/**
 * The order details dialog, max-w-3xl wide.
 * `order.history` is the staff's view of the order's events, already in French with actors by name
 * (server/orders/history.server.ts).
 */
export function OrderDetailsDialog({
  order,
  role,
  onClose,
  einvoicing = null,
}: {
  order: OrderDetails;
  /** The business documents' life on the plateforme agréée, when the order has any. */
  einvoicing?: EinvoicingView | null;
  /** Each form shows only to a role that may use it (the server checks again, access.server.ts). */
  role: Role;
  onClose: () => void;
}) {
  const allowed = (capability: Capability) => can(role, capability);
  const timeline = order.history;
  const notes = timeline.filter((entry) => entry.isNote);
  return (
    <Dialog open onOpenChange={(open) => (open ? null : onClose())}>
      <DialogContent className="max-w-3xl grid-cols-[minmax(0,1fr)]">
        <DialogHeader>
          <DialogTitle>
            Commande <span className="whitespace-nowrap">{order.number}</span>
          </DialogTitle>
          <DialogDescription>Passée le {formatDateTimeFr(order.createdAt)}</DialogDescription>
        </DialogHeader>

        <div className="grid gap-4 sm:grid-cols-2">
          <section aria-labelledby="commande-client" className="rounded-lg border border-border p-4">
            <h3 id="commande-client" className="mb-2 font-semibold">
              Client{' '}
              {order.customer.isGuest ? <span className="font-normal text-muted-foreground">(invité)</span> : null}
            </h3>
            <dl className="grid gap-2">
              <Info label="Nom">{order.customer.name || '—'}</Info>
              <Info label="Email">{order.customer.email ?? '—'}</Info>
              <Info label="Téléphone">{order.customer.phone ?? '—'}</Info>
              <Info label="Adresse">{order.customer.address ?? '—'}</Info>
              <Info label="Code postal">{order.customer.postalCode ?? '—'}</Info>
              <Info label="Ville">{order.customer.city ?? '—'}</Info>
            </dl>
          </section>
          {order.addresses.delivery || order.addresses.billing ? (
            <div className="order-last rounded-lg border border-border p-4 sm:col-span-2">
              <OrderAddresses
                headingId="commande-adresses"
                delivery={order.addresses.delivery}
                billing={order.addresses.billing}
              />
            </div>
          ) : null}
          {order.business ? (
            <section
              aria-labelledby="commande-entreprise"
              className="order-last rounded-lg border border-border p-4 sm:col-span-2"
            >
              <h3 id="commande-entreprise" className="mb-2 font-semibold">
                Client professionnel
              </h3>
              <ul className="flex flex-col gap-0.5 text-sm">
                {businessBuyerLines(order).map((line) => (
                  <li key={line}>{line}</li>
                ))}
                {order.business.publicBody ? <li>Organisme public (Chorus Pro)</li> : null}
              </ul>
            </section>
          ) : null}
          <section aria-labelledby="commande-resume" className="rounded-lg border border-border p-4">
            <h3 id="commande-resume" className="mb-2 font-semibold">
              Résumé
            </h3>
            <dl className="grid gap-2">
              <Info label="Statut">
                <OrderStatusBadge status={order.status} />
              </Info>
              <Info label="Total">
                <span className="font-semibold">{formatEurosFromCents(order.prices.totalPriceCents)}</span>
              </Info>
              <Info label="Paiement">
                <span className="flex flex-wrap items-center gap-2">
                  <PaymentStatusBadge status={order.paymentStatus} />
                  {PAYMENT_METHOD_LABELS[order.paymentMethod] ?? order.paymentMethod}
                </span>
              </Info>
              <Info label="Livraison">{DELIVERY_LABELS[order.deliveryMethod] ?? order.deliveryMethod}</Info>
              <Info label="Facture">
                {order.invoice && allowed('accounting') ? (
                  <span className="flex flex-wrap items-center gap-2">
                    {order.invoice.number}
                    <a href={`/facture/${order.id}`} className="inline-flex items-center gap-1 text-primary underline">
                      Voir
                      <ExternalLinkIcon className="size-3" aria-hidden="true" />
                    </a>
                    <a
                      href={`/facture/${order.id}/pdf`}
                      className="inline-flex items-center gap-1 text-primary underline"
                    >
                      PDF
                      <FileDownIcon className="size-3" aria-hidden="true" />
                    </a>
                  </span>
                ) : (
                  (order.invoice?.number ?? 'Pas encore de facture')
                )}
              </Info>
              {order.creditNotes.length > 0 ? (
                <Info label="Avoirs">
                  {order.creditNotes.map((c) => `${c.number} (${formatDateFr(c.issuedAt)})`).join(', ')}
                </Info>
              ) : null}
              {order.withdrawnAt ? <Info label="Rétractation">{formatDateTimeFr(order.withdrawnAt)}</Info> : null}
            </dl>
          </section>
        </div>

        <section aria-labelledby="commande-articles" className="flex flex-col gap-2">
          <h3 id="commande-articles" className="font-semibold">
            Articles
          </h3>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Type</TableHead>
                <TableHead className="text-right">Quantité</TableHead>
                <TableHead className="text-right">Prix unitaire</TableHead>
                <TableHead className="text-right">Total</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {[
                ...orderItemRows(order.items, order.prices),
                ...orderChargeRows(order.prices, order.deliveryMethod),
              ].map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the items of an order keep their position
                <TableRow key={index}>
                  <TableCell>
                    {row.label}
                    <span className="block text-muted-foreground text-xs">{row.detail}</span>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{row.quantity}</TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(row.unitPriceCents)}
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-right tabular-nums">
                    {formatEurosFromCents(row.totalCents)}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
            <TableFooter>
              <TableRow>
                <TableCell colSpan={3}>Total TTC</TableCell>
                <TableCell className="whitespace-nowrap text-right tabular-nums">
                  {formatEurosFromCents(order.prices.totalPriceCents)}
                </TableCell>
              </TableRow>
            </TableFooter>
          </Table>
        </section>

        {allowed('orders.write') ? (
          <section
            aria-labelledby="commande-statut"
            className="flex flex-col gap-2 rounded-lg border border-border p-4"
          >
            <h3 id="commande-statut" className="font-semibold">
              Changer le statut
            </h3>
            <StatusForm order={order} canRefund={allowed('refunds')} />
          </section>
        ) : null}

        <OrderWorkshop order={order} canMove={allowed('orders.write')} />
        {allowed('shipping') ? <OrderShipping orderId={order.id} status={order.status} /> : null}

        <DueRefunds order={order} canApprove={allowed('refunds')} />
        {allowed('refunds') ? <OrderMoneyActions order={order} /> : null}

        {allowed('reception') ? <ReceptionPanel orderId={order.id} /> : null}
        {allowed('files') ? (
          <>
            <OrderFilesSection orderId={order.id} />
            {/* A closed order takes no files (the upload endpoint refuses them with the same words). */}
            {order.closedWork ? (
              <p className="text-muted-foreground text-sm">{order.closedWork}</p>
            ) : (
              <FileUploadPanel orderId={order.id} supports={uploadSupports(order.items)} />
            )}
          </>
        ) : null}

        {einvoicing ? (
          <OrderEinvoicing
            orderId={order.id}
            view={einvoicing}
            canReissue={allowed('refunds')}
            canWrite={allowed('orders.write')}
          />
        ) : null}

        <section aria-labelledby="commande-historique" className="flex flex-col gap-2">
          <h3 id="commande-historique" className="font-semibold">
            Historique
          </h3>
          <ol className="flex flex-col gap-2 border-border border-l pl-4">
            {timeline.map((entry, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: history entries are in a fixed order
              <li key={index} className="text-sm">
                <time dateTime={entry.at} className="text-muted-foreground text-xs">
                  {formatDateTimeFr(entry.at)}
                </time>
                <p>
                  <span className={entry.isNote ? 'font-medium text-sepia' : 'font-medium'}>{entry.label}</span>
                  {entry.actorName ? <span className="text-muted-foreground"> · {entry.actorName}</span> : null}
                </p>
                {entry.detail ? <p className="text-muted-foreground">{entry.detail}</p> : null}
                {entry.emailId && allowed('orders.write') ? (
                  <ResendEmailButton emailId={entry.emailId} label={entry.detail ?? entry.label} />
                ) : null}
              </li>
            ))}
          </ol>
        </section>

        {allowed('orders.write') ? (
          <>
            <section aria-labelledby="commande-contact" className="flex flex-col gap-2">
              <h3 id="commande-contact" className="font-semibold">
                Contacter le client
              </h3>
              <OrderContactForm orderId={order.id} email={order.customer.email} />
            </section>

            <section aria-labelledby="commande-notes" className="flex flex-col gap-2">
              <h3 id="commande-notes" className="font-semibold">
                Notes internes ({notes.length})
              </h3>
              <NoteForm orderId={order.id} />
            </section>
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
