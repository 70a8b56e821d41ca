import { parseWithZod } from '@conform-to/zod/v4';
import { data, useLocation, useNavigate } from 'react-router';
import type { StatusActionData } from '~/components/admin/order-details-dialog';
import { OrderDetailsDialog } from '~/components/admin/order-details-dialog';
import type { EinvoiceActionData } from '~/components/admin/order-einvoicing';
import type { MoneyActionData } from '~/components/admin/order-money-forms';
import type { StageActionData } from '~/components/admin/order-stage-form';
import { OrderFilters, OrdersTable } from '~/components/admin/orders-table';
import type { RevealIbanData } from '~/components/admin/refund-iban-panel';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { parseOrderListParams, withParams } from '~/domain/admin/list-params';
import { STATUS_CHANGE_MESSAGES } from '~/domain/admin/messages';
import {
  ORDER_NOTE_MESSAGES,
  orderNoteSchema,
  statusChangeSchema,
  UNKNOWN_STATUS_MESSAGE,
} from '~/domain/admin/order-dialog-forms';
import { BUYER_CORRECTION_FIELD_LABELS } from '~/domain/einvoicing/buyer-correction';
import { firstFormError } from '~/domain/form-errors';
import { formatEurosFromCents } from '~/domain/format';
import { orderStatusLabel } from '~/domain/order-status';
import {
  REFUND_FORM_MESSAGES,
  refundApprovalSchema,
  refundFormSchema,
  withdrawalSettlementSchema,
} from '~/domain/orders/refund-form';
import { ORDER_DIALOG_INTENTS } from '~/domain/staff/access-rules';
import { can } from '~/domain/staff/permissions';
import { requireIntent, requireStaff } from '~/server/admin/access.server';
import { addOrderNote, changeOrderStatus, getOrderDetails, listOrders } from '~/server/admin/orders.server';
import { listSavedFilters } from '~/server/admin/saved-filters.server';
import { invalidateDashboardStats } from '~/server/admin/stats.server';
import { advanceOrders } from '~/server/admin/workshop.server';
import { PaError } from '~/server/einvoicing/pa-client.server';
import {
  drainPaFlows,
  getOrderEinvoicing,
  pollPaStatuses,
  reissueRejectedInvoice,
  retryFailedPaFlow,
} from '~/server/einvoicing/pa-deposits.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { applyTransition } from '~/server/orders/lifecycle.server';
import { revealIban } from '~/server/orders/refund-iban.server';
import { approveRefund, refundOrder } from '~/server/orders/refunds.server';
import type { Route } from './+types/orders';

/*
 * The Commandes tab (the dashboard's default): the orders, filtered, searched, sorted and paginated
 * on the server from the address bar's parameters; `?commande=<id>` opens the order details dialog.
 * Actions: the status change (with its e-mail; a cancellation carries its refund), refunds, the
 * settlement of a withdrawal, and internal notes. Every change of state goes through the order
 * lifecycle.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request }: Route.LoaderArgs) {
  const staff = await requireStaff(request, 'orders.read');
  const url = new URL(request.url);
  const params = parseOrderListParams(url.searchParams);
  const orderId = url.searchParams.get('commande');
  const [page, details, savedFilters, einvoicing] = await Promise.all([
    listOrders(params),
    orderId && UUID.test(orderId) ? getOrderDetails(orderId) : Promise.resolve(null),
    listSavedFilters(staff.id),
    orderId && UUID.test(orderId) ? getOrderEinvoicing(orderId) : Promise.resolve(null),
  ]);
  return {
    params,
    page,
    details,
    einvoicing,
    missingOrder: Boolean(orderId) && !details,
    savedFilters,
    role: staff.role,
  };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
const reply = (body: StatusActionData, status = 200) => data(body, { status });
const moneyReply = (body: MoneyActionData) => data(body, { status: 200 });

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireStaff(request, 'orders.read');
  const form = await readFormData(request);
  const intent = form.get('intent');
  // The intent alone decides who may send it (domain/staff/access-rules.ts); unknown intents are refused.
  requireIntent(request, admin, ORDER_DIALOG_INTENTS, intent);
  const orderId = String(form.get('orderId') ?? '');
  if (!UUID.test(orderId)) {
    return reply({ intent: 'status', ok: false, error: 'Commande introuvable' }, 404);
  }
  if (intent === 'note') return addNote(form, orderId, admin);
  if (intent === 'refund') return refund(form, orderId, admin.id);
  if (intent === 'stage') return advanceStage(orderId, admin.id);
  if (intent === 'settle-withdrawal') return settleWithdrawal(form, orderId, admin.id);
  if (intent === 'approve-refund') return approveDueRefund(form, orderId, admin.id);
  if (intent === 'reveal-iban') return revealBankDetails(orderId, admin.id);
  if (intent === 'einvoice-reissue' || intent === 'einvoice-retry' || intent === 'einvoice-poll') {
    return data(await einvoiceAction(intent, form, orderId, admin.id));
  }
  if (intent !== 'status') return reply({ intent: 'status', ok: false, error: UNKNOWN_STATUS_MESSAGE }, 400);
  return changeStatus(form, orderId, admin);
}

type Admin = Awaited<ReturnType<typeof requireStaff>>;

/** The « Facture électronique » section's forms (components/admin/order-einvoicing.tsx). */
async function einvoiceAction(
  intent: 'einvoice-reissue' | 'einvoice-retry' | 'einvoice-poll',
  form: FormData,
  orderId: string,
  actor: string,
): Promise<EinvoiceActionData> {
  const paFlowId = String(form.get('paFlowId') ?? '');
  try {
    if (intent === 'einvoice-poll') {
      const { received } = await pollPaStatuses();
      await drainPaFlows();
      return {
        intent: 'einvoice',
        ok: true,
        message: received > 0 ? `${received} nouveau(x) statut(s) reçu(s).` : 'Aucun nouveau statut.',
      };
    }
    if (!UUID.test(paFlowId)) return { intent: 'einvoice', ok: false, error: 'Dépôt introuvable.' };
    if (intent === 'einvoice-retry') {
      const retried = await retryFailedPaFlow(orderId, paFlowId);
      if (retried) await drainPaFlows();
      return retried
        ? { intent: 'einvoice', ok: true, message: 'Dépôt relancé.' }
        : { intent: 'einvoice', ok: false, error: 'Ce dépôt n’est pas en échec.' };
    }
    const correction = Object.fromEntries(
      Object.keys(BUYER_CORRECTION_FIELD_LABELS).map((field) => [field, String(form.get(field) ?? '')]),
    );
    const result = await reissueRejectedInvoice({ orderId, paFlowId, correction, actor });
    if (!result.ok) return { intent: 'einvoice', ok: false, error: result.error, fieldErrors: result.fieldErrors };
    await invalidateDashboardStats();
    // Deposited now rather than at the worker's next pass; a PA that is down leaves it queued.
    await drainPaFlows().catch((error: unknown) => log.warn({ err: error }, 'PA: deposit after re-issue deferred'));
    return {
      intent: 'einvoice',
      ok: true,
      message: `Facture réémise\u00a0: ${result.invoiceNumber}${result.creditNoteNumber ? ` (avoir ${result.creditNoteNumber})` : ''}.`,
    };
  } catch (error) {
    log.error({ err: error, orderId, intent }, 'e-invoicing action failed');
    const message = error instanceof PaError ? error.message : 'L’action n’a pas pu être faite. Réessayez.';
    return { intent: 'einvoice', ok: false, error: message };
  }
}

async function addNote(form: FormData, orderId: string, admin: Admin) {
  const submission = parseWithZod(form, { schema: orderNoteSchema });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, ORDER_NOTE_MESSAGES.empty);
    return reply({ intent: 'note', ok: false, error, submission: submission.reply() });
  }
  const result = await addOrderNote({ orderId, text: submission.value.text, actor: admin });
  if (result.ok) return reply({ intent: 'note', ok: true, submission: submission.reply({ resetForm: true }) });
  if (result.reason === 'not-found') return reply({ intent: 'note', ok: false, error: 'Commande introuvable' }, 404);
  const error = ORDER_NOTE_MESSAGES[result.reason === 'too-long' ? 'tooLong' : result.reason];
  return reply({ intent: 'note', ok: false, error, submission: submission.reply({ fieldErrors: { text: [error] } }) });
}

async function changeStatus(form: FormData, orderId: string, admin: Admin) {
  const submission = parseWithZod(form, { schema: statusChangeSchema });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, UNKNOWN_STATUS_MESSAGE);
    return reply({ intent: 'status', ok: false, error, submission: submission.reply() });
  }
  const { status, refund, startBeforePayment } = submission.value;
  try {
    const result = await changeOrderStatus({
      orderId,
      status,
      actor: admin,
      refund,
      refundRight: can(admin.role, 'refunds'),
      startBeforePayment,
    });
    if (!result.ok) {
      return result.reason === 'refused'
        ? reply({
            intent: 'status',
            ok: false,
            error: result.message,
            submission: submission.reply({ formErrors: [result.message] }),
          })
        : reply({ intent: 'status', ok: false, error: 'Commande introuvable' }, 404);
    }
    return reply({
      intent: 'status',
      ok: true,
      changed: result.changed,
      orderNumber: result.orderNumber,
      statusLabel: orderStatusLabel(result.to),
      email: result.email,
      creditNote: result.creditNote,
      refund: result.refund,
    });
  } catch (error) {
    log.error({ err: error, orderId }, 'status change failed');
    return reply({ intent: 'status', ok: false, error: STATUS_CHANGE_MESSAGES.updateFailed }, 500);
  }
}

/** « Passer à l’étape … » in the dialog: the same lifecycle transition as the workshop board's. */
async function advanceStage(orderId: string, actor: string) {
  const [outcome] = await advanceOrders([orderId], actor);
  const body: StageActionData = outcome?.ok
    ? { intent: 'stage', ok: true, message: `Commande ${outcome.number} : ${outcome.message}` }
    : { intent: 'stage', ok: false, error: outcome?.message ?? 'Commande introuvable' };
  return data(body, { status: 200 });
}

async function refund(form: FormData, orderId: string, actor: string) {
  const submission = parseWithZod(form, { schema: refundFormSchema });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, REFUND_FORM_MESSAGES.amountInvalid);
    return moneyReply({ intent: 'refund', ok: false, error, submission: submission.reply() });
  }
  const { amount, method, reason } = submission.value;
  const result = await refundOrder({ orderId, amountCents: amount, method, reason, actor });
  if (!result.ok) {
    const refusal = submission.reply({ formErrors: [result.message] });
    return moneyReply({ intent: 'refund', ok: false, error: result.message, submission: refusal });
  }
  await invalidateDashboardStats();
  const note = result.creditNoteNumber ? ` — avoir ${result.creditNoteNumber}` : '';
  return moneyReply({
    intent: 'refund',
    ok: true,
    message: `Remboursement de ${formatEurosFromCents(result.amountCents)} enregistré${note}.`,
    submission: submission.reply({ resetForm: true }),
  });
}

async function settleWithdrawal(form: FormData, orderId: string, actor: string) {
  const submission = parseWithZod(form, { schema: withdrawalSettlementSchema });
  const intent = 'settle-withdrawal';
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, REFUND_FORM_MESSAGES.amountInvalid);
    return moneyReply({ intent, ok: false, error, submission: submission.reply() });
  }
  const refuse = (message: string) =>
    moneyReply({ intent, ok: false, error: message, submission: submission.reply({ formErrors: [message] }) });
  const { kept, method } = submission.value;
  const result = await applyTransition(orderId, { type: 'settle_withdrawal', keptCents: kept }, actor, {
    refundMethod: method,
    reason: 'Rétractation du client',
  });
  if (!result.ok) return refuse(result.message);
  await invalidateDashboardStats();
  // The settlement stands; a refund the gateway refused stays « à rembourser » with a retry.
  const failed = result.refundResults.find((r) => !r.ok);
  return moneyReply({
    intent,
    ok: true,
    message:
      failed && !failed.ok
        ? `Rétractation réglée : la commande est annulée. Remboursement à refaire : ${failed.message}`
        : 'Rétractation réglée : la commande est annulée.',
    submission: submission.reply(),
  });
}

/** « Approuver le remboursement »: money owed back (« à rembourser ») is given back now. */
async function approveDueRefund(form: FormData, orderId: string, actor: string) {
  const intent = 'approve-refund';
  const submission = parseWithZod(form, { schema: refundApprovalSchema });
  if (submission.status !== 'success') {
    const error = firstFormError(submission.error, REFUND_FORM_MESSAGES.methodInvalid);
    return moneyReply({ intent, ok: false, error, submission: submission.reply() });
  }
  const { refundId, method } = submission.value;
  const result = await approveRefund({ orderId, refundId, method, actor });
  await invalidateDashboardStats();
  if (!result.ok) {
    return moneyReply({
      intent,
      ok: false,
      error: result.message,
      submission: submission.reply({ formErrors: [result.message] }),
    });
  }
  const note = result.creditNoteNumber ? ` — avoir ${result.creditNoteNumber}` : '';
  return moneyReply({
    intent,
    ok: true,
    message: `Remboursement de ${formatEurosFromCents(result.amountCents)} effectué${note}.`,
    submission: submission.reply(),
  });
}

/**
 * « Afficher l’IBAN complet »: the customer's IBAN for who pays the refund (the door checked the
 * refund right), journaled by revealIban; never cached, never logged.
 */
async function revealBankDetails(orderId: string, actor: string) {
  const headers = { 'Cache-Control': 'no-store' };
  try {
    const details = await revealIban(orderId, actor);
    const body: RevealIbanData = details
      ? {
          intent: 'reveal-iban',
          ok: true,
          iban: { holder: details.holder, formatted: details.formatted, compact: details.iban, bic: details.bic },
        }
      : { intent: 'reveal-iban', ok: false, error: 'Le client n’a pas indiqué d’IBAN, ou il a été effacé.' };
    return data(body, { status: 200, headers });
  } catch (error) {
    log.error({ err: error, orderId }, 'the refund IBAN could not be read');
    const body: RevealIbanData = { intent: 'reveal-iban', ok: false, error: 'L’IBAN n’a pas pu être lu.' };
    return data(body, { status: 200, headers });
  }
}

export default function OrdersTab({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const close = () =>
    navigate(
      withParams(new URLSearchParams(location.search), {
        commande: null,
        page: new URLSearchParams(location.search).get('page'),
      }),
      {
        preventScrollReset: true,
      },
    );
  return (
    <div className="flex flex-col gap-4">
      <OrderFilters params={loaderData.params} />
      <OrdersTable
        page={loaderData.page}
        params={loaderData.params}
        savedFilters={loaderData.savedFilters}
        role={loaderData.role}
      />
      {loaderData.details ? (
        <OrderDetailsDialog
          order={loaderData.details}
          role={loaderData.role}
          onClose={close}
          einvoicing={loaderData.einvoicing}
        />
      ) : null}
      {loaderData.missingOrder ? <Alert variant="danger">Cette commande est introuvable.</Alert> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
