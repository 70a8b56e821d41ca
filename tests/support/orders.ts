import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { withClient } from './databases';

/*
 * Orders written straight into a test database, for the tests of payment and invoicing (the
 * configurator's order creation is exercised by its own tests). The default order is priced with
 * the default price list, its fields adding up to the total as the pricing code would make them:
 *   100 paper photos, standard, 2400 dpi, JPEG: 100 x 0,35 €        35,00 €
 *   2 VHS tapes with denoising: 2 x 17,00 € + 2 x 5,00 €           44,00 €
 *   delivery on a USB key                                          15,90 €
 *                                                          total  94,90 €
 * A guest order gets an access token; its cookie (`sv_order_<id>=<token>`) opens it.
 */

export const DEFAULT_ORDER_TOTAL_CENTS = 9490;

export interface TestOrder {
  id: string;
  number: string;
  totalCents: number;
  /** Guest orders: the raw access token and the Cookie header value that carries it. */
  accessToken: string | null;
  cookie: string | null;
}

export interface TestOrderOptions {
  /** The owner's user id; without it the order is a guest's. */
  userId?: string | null;
  guestEmail?: string | null;
  guestFirstName?: string;
  guestLastName?: string;
  paymentStatus?: 'pending' | 'paid' | 'failed' | 'refunded';
  status?: 'pending' | 'processing' | 'completed' | 'shipped' | 'canceled';
  /** Adds this many cents to the base price (and the total), to vary amounts. */
  extraCents?: number;
  /**
   * The order ships a USB key: a placed one has its delivery address frozen, as the checkout
   * writes it. False leaves it without (the orders of before addresses were asked).
   */
  deliveryAddress?: boolean;
  /** The customer asked for the work to start within the withdrawal period (docs/decisions/015). */
  earlyStartConsent?: boolean;
}

/** The delivery address frozen on the test orders. */
export const TEST_DELIVERY_ADDRESS = {
  firstName: 'Marie',
  lastName: 'Curie',
  line1: '11 rue Pierre et Marie Curie',
  postalCode: '75005',
  city: 'Paris',
  country: 'FR',
  phone: '+33612345678',
} as const;

/** The checkout's details of a physical order placed by a test (confirmCheckout's `details`). */
export const TEST_CHECKOUT_DETAILS = {
  delivery: { ...TEST_DELIVERY_ADDRESS, company: null, line2: null },
  billing: null,
  insuredValueCents: 0,
  saveToProfile: false,
};

type Queryable = Pick<pg.Client, 'query'>;

export async function insertTestOrder(databaseUrl: string, options: TestOrderOptions = {}): Promise<TestOrder> {
  return withClient(databaseUrl, (client) => insertTestOrderWith(client, options));
}

/** guest_email … guest_city: the guest's (Marie Curie by default), or none for an account's order. */
function guestColumns(options: TestOrderOptions): (string | null)[] {
  if (options.userId) return [null, null, null, null, null, null];
  return [
    options.guestEmail === undefined ? 'invite@example.fr' : options.guestEmail,
    options.guestFirstName ?? 'Marie',
    options.guestLastName ?? 'Curie',
    '11 rue Pierre et Marie Curie',
    '75005',
    'Paris',
  ];
}

async function insertDeliveryAddress(client: Queryable, id: string, options: TestOrderOptions): Promise<void> {
  const guest = !options.userId;
  // The recipient is the buyer: the guest's name, or the account holder's.
  const { rows: owners } = options.userId
    ? await client.query<{ first_name: string; last_name: string }>(
        'select first_name, last_name from "user" where id = $1',
        [options.userId],
      )
    : { rows: [] };
  const a = TEST_DELIVERY_ADDRESS;
  const firstName = (guest ? options.guestFirstName : owners[0]?.first_name) || a.firstName;
  const lastName = (guest ? options.guestLastName : owners[0]?.last_name) || a.lastName;
  await client.query(
    `insert into order_addresses (order_id, kind, first_name, last_name, line1, postal_code, city, country, phone)
     values ($1, 'delivery', $2, $3, $4, $5, $6, $7, $8)`,
    [id, firstName, lastName, a.line1, a.postalCode, a.city, a.country, a.phone],
  );
}

export async function insertTestOrderWith(client: Queryable, options: TestOrderOptions = {}): Promise<TestOrder> {
  const guest = !options.userId;
  const accessToken = guest ? randomBytes(32).toString('base64url') : null;
  const hash = accessToken ? createHash('sha256').update(accessToken, 'utf8').digest('hex') : null;
  const extra = options.extraCents ?? 0;
  const photos = 3500 + extra;
  const total = DEFAULT_ORDER_TOTAL_CENTS + extra;
  const number = `SV-TEST-${randomBytes(5).toString('hex').toUpperCase()}`;
  const { rows: lists } = await client.query<{ id: string }>('select id from price_lists where is_active limit 1');
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (number, user_id, guest_email, guest_first_name, guest_last_name, guest_address,
       guest_postal_code, guest_city, access_token_hash, status, payment_status, payment_method, delivery_method,
       base_price, denoise_price, delivery_cost, total_price, price_list_id, early_start_consent_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'card', 'usb', $12, 1000, 1590, $13, $14,
       case when $15::boolean then now() end)
     returning id`,
    [
      number,
      options.userId ?? null,
      ...guestColumns(options),
      hash,
      options.status ?? 'pending',
      options.paymentStatus ?? 'pending',
      photos + 3400,
      total,
      lists[0]?.id ?? null,
      options.earlyStartConsent ?? false,
    ],
  );
  const id = rows[0]?.id as string;
  // With extra cents the photos' line is stated as one lot (quantity x unit no longer matches).
  await client.query(
    `insert into order_items (order_id, position, type, quantity, quality, resolution, format, restoration, denoise,
       reel_size, unit_price, line_total)
     values ($1, 0, 'photos', 100, 'standard', '2400dpi', 'jpeg', 0, false, null, 35, $2),
            ($1, 1, 'vhs', 2, 'standard', null, null, 0, true, null, 1700, 4400)`,
    [id, photos],
  );
  await client.query(
    `insert into order_events (order_id, actor, kind, "to") values ($1, 'customer', 'created', 'pending')`,
    [id],
  );
  if (options.deliveryAddress !== false) await insertDeliveryAddress(client, id, options);
  return {
    id,
    number,
    totalCents: total,
    accessToken,
    cookie: accessToken ? `sv_order_${id}=${accessToken}` : null,
  };
}

export interface OrderState {
  status: string;
  paymentStatus: string;
  paidAt: Date | null;
  invoices: string[];
  payments: { provider: string; status: string; amount: number }[];
  events: string[];
  notifications: number;
  outbox: { template: string; to: string; data: Record<string, unknown> }[];
}

/** Everything a payment may change about an order, to compare before and after. */
export async function orderState(databaseUrl: string, orderId: string): Promise<OrderState> {
  return withClient(databaseUrl, (client) => orderStateWith(client, orderId));
}

export async function orderStateWith(client: Queryable, orderId: string): Promise<OrderState> {
  const order = (
    await client.query<{ status: string; payment_status: string; paid_at: Date | null }>(
      'select status, payment_status, paid_at from orders where id = $1',
      [orderId],
    )
  ).rows[0];
  if (!order) throw new Error(`no order ${orderId}`);
  const invoices = await client.query<{ number: string }>('select number from invoices where order_id = $1', [orderId]);
  const payments = await client.query<{ provider: string; status: string; amount: number }>(
    'select provider, status, amount from payments where order_id = $1 order by created_at',
    [orderId],
  );
  const events = await client.query<{ kind: string }>('select kind from order_events where order_id = $1 order by id', [
    orderId,
  ]);
  const notifications = await client.query<{ n: number }>(
    'select count(*)::int as n from notifications where order_id = $1',
    [orderId],
  );
  const outbox = await client.query<{ template: string; to: string; data: Record<string, unknown> }>(
    'select template, "to", data from email_outbox where order_id = $1 order by created_at',
    [orderId],
  );
  return {
    status: order.status,
    paymentStatus: order.payment_status,
    paidAt: order.paid_at,
    invoices: invoices.rows.map((r) => r.number),
    payments: payments.rows,
    events: events.rows.map((r) => r.kind),
    notifications: notifications.rows[0]?.n ?? 0,
    outbox: outbox.rows,
  };
}
