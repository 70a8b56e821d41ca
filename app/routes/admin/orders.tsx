import { data, useLocation, useNavigate } from 'react-router';
import type { StatusActionData } from '~/components/admin/order-details-dialog';
import { OrderDetailsDialog } from '~/components/admin/order-details-dialog';
import { OrderFilters, OrdersTable } from '~/components/admin/orders-table';
import { TabError } from '~/components/admin/tab-error';
import { parseOrderListParams, withParams } from '~/domain/admin/list-params';
import { STATUS_CHANGE_MESSAGES } from '~/domain/admin/messages';
import { isOrderStatus, orderStatusLabel } from '~/domain/order-status';
import { requireAdminUser } from '~/server/admin/access.server';
import { addOrderNote, changeOrderStatus, getOrderDetails, listOrders } from '~/server/admin/orders.server';
import { db } from '~/server/db/client.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import { loadOrderHistory } from '~/server/orders/history.server';
import type { Route } from './+types/orders';

/*
 * The Commandes tab (the dashboard's default): the orders, filtered, searched, sorted and paginated
 * on the server from the address bar's parameters; `?commande=<id>` opens the order details dialog.
 * Actions: the status change (with its e-mail) and internal notes.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdminUser(request);
  const url = new URL(request.url);
  const params = parseOrderListParams(url.searchParams);
  const orderId = url.searchParams.get('commande');
  const wanted = orderId && UUID.test(orderId) ? orderId : null;
  const [page, details, history] = await Promise.all([
    listOrders(params),
    wanted ? getOrderDetails(wanted) : Promise.resolve(null),
    // The history in French with actors by name (never a user id nor a code).
    wanted ? loadOrderHistory(db(), wanted, { audience: 'staff' }) : Promise.resolve([]),
  ]);
  return { params, page, details, history, missingOrder: Boolean(orderId) && !details };
}

// Answers a form can correct are 200 with `ok: false`: a 4xx is logged as an error by browsers.
const reply = (body: StatusActionData, status = 200) => data(body, { status });

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
    const error =
      result.reason === 'not-found'
        ? 'Commande introuvable'
        : result.reason === 'empty'
          ? 'La note est vide'
          : 'La note est trop longue';
    return reply({ intent: 'note', ok: false, error }, result.reason === 'not-found' ? 404 : 200);
  }
  const status = form.get('status');
  if (intent !== 'status' || !isOrderStatus(status)) {
    return reply({ intent: 'status', ok: false, error: 'Statut inconnu' }, 400);
  }
  try {
    const result = await changeOrderStatus({ orderId, status, actor: admin });
    if (!result.ok) return reply({ intent: 'status', ok: false, error: 'Commande introuvable' }, 404);
    return reply({
      intent: 'status',
      ok: true,
      changed: result.changed,
      orderNumber: result.orderNumber,
      statusLabel: orderStatusLabel(result.to),
      email: result.email,
      creditNote: result.creditNote,
    });
  } catch (error) {
    log.error({ err: error, orderId }, 'status change failed');
    return reply({ intent: 'status', ok: false, error: STATUS_CHANGE_MESSAGES.updateFailed }, 500);
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
      <OrdersTable page={loaderData.page} params={loaderData.params} />
      {loaderData.details ? (
        <OrderDetailsDialog order={loaderData.details} history={loaderData.history} onClose={close} />
      ) : null}
      {loaderData.missingOrder ? (
        <p role="alert" className="text-destructive text-sm">
          Cette commande est introuvable.
        </p>
      ) : null}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
