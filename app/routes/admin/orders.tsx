import { data, useLocation, useNavigate } from 'react-router';
import type { z } from 'zod';
import type { StatusActionData } from '~/components/admin/order-details-dialog';
import { OrderDetailsDialog } from '~/components/admin/order-details-dialog';
import type { MoneyActionData } from '~/components/admin/order-money-forms';
import type { StageActionData } from '~/components/admin/order-stage-form';
import { OrderFilters, OrdersTable } from '~/components/admin/orders-table';
import { TabError } from '~/components/admin/tab-error';
import { Alert } from '~/components/ui/alert';
import { parseOrderListParams, withParams } from '~/domain/admin/list-params';
import { STATUS_CHANGE_MESSAGES } from '~/domain/admin/messages';
import { MAX_NOTE_LENGTH } from '~/domain/admin/timeline';
import { formatEurosFromCents } from '~/domain/format';
import { isOrderStatus, orderStatusLabel } from '~/domain/order-status';
import { type RefundMethodChoice, refundFormSchema, withdrawalSettlementSchema } from '~/domain/orders/refund-form';
import { FORBIDDEN_CHARACTER_MESSAGE } from '~/domain/text-input';
import { requireAdminUser } from '~/server/admin/access.server';
import { addOrderNote, changeOrderStatus, getOrderDetails, listOrders } from '~/server/admin/orders.server';
import { invalidateDashboardStats } from '~/server/admin/stats.server';
import { advanceOrders } from '~/server/admin/workshop.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { applyTransition } from '~/server/orders/lifecycle.server';
import { refundOrder } from '~/server/orders/refunds.server';
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
  await requireAdminUser(request);
  const url = new URL(request.url);
  const params = parseOrderListParams(url.searchParams);
  const orderId = url.searchParams.get('commande');
  const [page, details] = await Promise.all([
    listOrders(params),
    orderId && UUID.test(orderId) ? getOrderDetails(orderId) : Promise.resolve(null),
  ]);
  return { params, page, details, missingOrder: Boolean(orderId) && !details };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
const reply = (body: StatusActionData, status = 200) => data(body, { status });

const NOTE_ERRORS = {
  'not-found': 'Commande introuvable',
  empty: 'La note est vide',
  'too-long': `La note est trop longue (${MAX_NOTE_LENGTH} caractères au maximum)`,
  forbidden: FORBIDDEN_CHARACTER_MESSAGE,
} as const;

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdminUser(request);
  const form = await readFormData(request);
  const intent = form.get('intent');
  const orderId = String(form.get('orderId') ?? '');
  if (!UUID.test(orderId)) {
    return reply({ intent: 'status', ok: false, error: 'Commande introuvable' }, 404);
  }
  if (intent === 'note') {
    const result = await addOrderNote({ orderId, text: String(form.get('text') ?? ''), actor: admin });
    if (result.ok) return reply({ intent: 'note', ok: true });
    const error = NOTE_ERRORS[result.reason];
    return reply({ intent: 'note', ok: false, error }, result.reason === 'not-found' ? 404 : 200);
  }
  if (intent === 'refund') return refund(form, orderId, admin.id);
  if (intent === 'stage') return advanceStage(orderId, admin.id);
  if (intent === 'settle-withdrawal') return settleWithdrawal(form, orderId, admin.id);
  const status = form.get('status');
  if (intent !== 'status' || !isOrderStatus(status)) {
    return reply({ intent: 'status', ok: false, error: 'Statut inconnu' }, 400);
  }
  let refundChoice: { amountCents: number; method: RefundMethodChoice; reason: string } | null = null;
  if (status === 'canceled' && form.has('refundAmount')) {
    const parsed = refundFormSchema.safeParse({
      amount: form.get('refundAmount'),
      method: form.get('refundMethod'),
      reason: form.get('refundReason'),
    });
    if (!parsed.success) return reply({ intent: 'status', ok: false, error: firstIssue(parsed.error) });
    refundChoice = { amountCents: parsed.data.amount, method: parsed.data.method, reason: parsed.data.reason };
  }
  try {
    const result = await changeOrderStatus({ orderId, status, actor: admin, refund: refundChoice });
    if (!result.ok) {
      return result.reason === 'refused'
        ? reply({ intent: 'status', ok: false, error: result.message })
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

const moneyReply = (body: MoneyActionData) => data(body, { status: 200 });

/** « Passer à l’étape … » in the dialog: the same lifecycle transition as the workshop board's. */
async function advanceStage(orderId: string, actor: string) {
  const [outcome] = await advanceOrders([orderId], actor);
  const body: StageActionData = outcome?.ok
    ? { intent: 'stage', ok: true, message: `Commande ${outcome.number} : ${outcome.message}` }
    : { intent: 'stage', ok: false, error: outcome?.message ?? 'Commande introuvable' };
  return data(body, { status: 200 });
}

function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'Requête invalide';
}

function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

async function refund(form: FormData, orderId: string, actor: string) {
  const parsed = refundFormSchema.safeParse({
    amount: form.get('amount'),
    method: form.get('method'),
    reason: form.get('reason'),
  });
  if (!parsed.success) {
    return moneyReply({
      intent: 'refund',
      ok: false,
      error: firstIssue(parsed.error),
      fieldErrors: fieldErrors(parsed.error),
    });
  }
  const result = await refundOrder({
    orderId,
    amountCents: parsed.data.amount,
    method: parsed.data.method,
    reason: parsed.data.reason,
    actor,
  });
  if (!result.ok) return moneyReply({ intent: 'refund', ok: false, error: result.message });
  await invalidateDashboardStats();
  const note = result.creditNoteNumber ? ` — avoir ${result.creditNoteNumber}` : '';
  return moneyReply({
    intent: 'refund',
    ok: true,
    message: `Remboursement de ${formatEurosFromCents(result.amountCents)} enregistré${note}.`,
  });
}

async function settleWithdrawal(form: FormData, orderId: string, actor: string) {
  const parsed = withdrawalSettlementSchema.safeParse({ kept: form.get('kept'), method: form.get('method') });
  if (!parsed.success) {
    return moneyReply({
      intent: 'settle-withdrawal',
      ok: false,
      error: firstIssue(parsed.error),
      fieldErrors: fieldErrors(parsed.error),
    });
  }
  const result = await applyTransition(orderId, { type: 'settle_withdrawal', keptCents: parsed.data.kept }, actor, {
    refundMethod: parsed.data.method,
    reason: 'Rétractation du client',
  });
  if (!result.ok) return moneyReply({ intent: 'settle-withdrawal', ok: false, error: result.message });
  await invalidateDashboardStats();
  const failed = result.refundResults.find((r) => !r.ok);
  if (failed && !failed.ok) return moneyReply({ intent: 'settle-withdrawal', ok: false, error: failed.message });
  return moneyReply({
    intent: 'settle-withdrawal',
    ok: true,
    message: 'Rétractation réglée : la commande est annulée.',
  });
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
      <OrdersTable page={loaderData.page} params={loaderData.params} />
      {loaderData.details ? <OrderDetailsDialog order={loaderData.details} onClose={close} /> : null}
      {loaderData.missingOrder ? <Alert variant="danger">Cette commande est introuvable.</Alert> : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
