import type pg from 'pg';
import { signSandboxPayload } from '~/server/payments/sandbox.server';

/*
 * A crowd of guests buying over HTTP, as browsers without JavaScript and the sandbox gateway's
 * server do: each creates an order in the configurator (POST /configurateur, intent=order), opens
 * a payment session with the order's cookie (POST /api/create-checkout), then the gateway sends
 * the signed "payment succeeded" notification (POST /api/webhooks/sandbox). What the shop
 * acknowledged is recorded, so that a test can check that nothing acknowledged was lost.
 *
 * Every order is VHS tapes only, delivered digitally: its total is 17,00 € per tape, so that the
 * notification carries the amount the shop expects without reading the database.
 */

const VHS_UNIT_CENTS = 1700;

export interface Session {
  orderId: string;
  sessionId: string;
  amountCents: number;
}

export interface LoadRecord {
  /** Orders whose creation was answered (302 to /checkout): they must survive anything. */
  ordersAcknowledged: Map<string, { tapes: number }>;
  /** Payment sessions opened (200 with a session id). */
  sessions: Map<string, Session>;
  /** Orders whose payment notification the shop acknowledged (2xx). */
  paymentsAcknowledged: Set<string>;
  /** Requests sent and not answered yet. */
  inFlight: number;
  /** Requests that failed otherwise than by the connection dropping (a status we did not expect). */
  unexpected: string[];
}

export function newRecord(): LoadRecord {
  return {
    ordersAcknowledged: new Map(),
    sessions: new Map(),
    paymentsAcknowledged: new Set(),
    inFlight: 0,
    unexpected: [],
  };
}

/** The signed notification of the sandbox gateway for a successful payment of `session`. */
export function deliverPaidNotification(url: string, session: Session): Promise<Response> {
  const body = JSON.stringify({
    // The gateway's event id: one per session and outcome, so a redelivery is the same event.
    id: `sbxevt_${session.sessionId}_succeeded`,
    type: 'payment.succeeded',
    created: Math.floor(Date.now() / 1000),
    data: {
      sessionId: session.sessionId,
      orderId: session.orderId,
      amountCents: session.amountCents,
      currency: 'EUR',
      card: { brand: 'visa', last4: '4242' },
    },
  });
  return fetch(`${url}/api/webhooks/sandbox`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'soovenirs-sandbox-signature': signSandboxPayload(body) },
    body,
  });
}

async function tracked<T>(record: LoadRecord, request: () => Promise<T>): Promise<T> {
  record.inFlight++;
  try {
    return await request();
  } finally {
    record.inFlight--;
  }
}

/** One guest: order, pay, again, until `stop()` says so or the server stops answering. */
async function guest(url: string, record: LoadRecord, shouldStop: () => boolean, seed: number): Promise<void> {
  for (let round = 0; !shouldStop(); round++) {
    const tapes = 1 + ((seed + round) % 5);
    try {
      const created = await tracked(record, () =>
        fetch(`${url}/configurateur`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: url },
          body: new URLSearchParams({ support: 'vhs', 'vhs.quantity': String(tapes), intent: 'order' }),
        }),
      );
      const location = created.headers.get('location');
      if (created.status !== 302 || !location) {
        record.unexpected.push(`order creation answered ${created.status}`);
        continue;
      }
      const orderId = new URL(location, url).searchParams.get('orderId') as string;
      record.ordersAcknowledged.set(orderId, { tapes });
      const cookie = created.headers
        .getSetCookie()
        .find((c) => c.startsWith(`sv_order_${orderId}=`))
        ?.split(';')[0];

      const checkout = await tracked(record, () =>
        fetch(`${url}/api/create-checkout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: url, cookie: cookie ?? '' },
          body: JSON.stringify({ orderId, customerEmail: `invite-${seed}@example.fr`, returnUrl: '/' }),
        }),
      );
      if (checkout.status !== 200) {
        record.unexpected.push(`create-checkout answered ${checkout.status}`);
        continue;
      }
      const { sessionId } = (await checkout.json()) as { sessionId: string };
      const session = { orderId, sessionId, amountCents: tapes * VHS_UNIT_CENTS };
      record.sessions.set(orderId, session);

      const notified = await tracked(record, () => deliverPaidNotification(url, session));
      await notified.arrayBuffer();
      if (notified.ok) record.paymentsAcknowledged.add(orderId);
      else record.unexpected.push(`notification answered ${notified.status}`);
    } catch {
      // The connection dropped (the server was killed): this guest is done.
      return;
    }
  }
}

/** Starts `guests` concurrent buyers; the returned promise settles once every one has stopped. */
export function runCheckoutLoad(url: string, record: LoadRecord, guests: number, shouldStop: () => boolean) {
  return Promise.all(Array.from({ length: guests }, (_, i) => guest(url, record, shouldStop, i)));
}

export async function waitUntil(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

type Queryable = Pick<pg.Client, 'query'>;

async function rows<T>(client: Queryable, text: string, params: unknown[] = []): Promise<T[]> {
  return (await client.query(text, params)).rows as T[];
}

/**
 * What the shop's books look like, as an accountant would check them: orders with their lines,
 * payments, invoices and their numbering.
 */
export async function books(client: Queryable) {
  return {
    orders: await rows<{ id: string; payment_status: string; total_price: number; lines: number; created: number }>(
      client,
      `select o.id, o.payment_status, o.total_price,
         (select count(*) from order_items i where i.order_id = o.id)::int as lines,
         (select count(*) from order_events e where e.order_id = o.id and e.kind = 'created')::int as created
       from orders o`,
    ),
    paidPayments: await rows<{ order_id: string; amount: number }>(
      client,
      `select order_id, amount from payments where status = 'paid'`,
    ),
    invoices: await rows<{ order_id: string; number: string; amount: number }>(
      client,
      'select order_id, number, amount from invoices order by number',
    ),
    counters: await rows<{ year: number; last: number }>(
      client,
      // The sandbox takes the payments: its invoices are numbered in the demonstration series.
      `select year, last from invoice_counters where kind = 'demo_invoice' order by year`,
    ),
  };
}
