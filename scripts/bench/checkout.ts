import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { BenchServer } from './server';

/*
 * Checkout under load: N guest orders created and paid at once, over HTTP as browsers and the
 * gateway do it. Each order: the configurator's form post (the order, and its access cookie),
 * create-checkout (a sandbox payment session), then the sandbox's signed "payment succeeded"
 * notification delivered three times, all deliveries of all orders shuffled together (gateways
 * retry, and out of order). Then SQL says whether the shop kept its books: N paid orders, N
 * invoices numbered without gap or duplicate, one paid payment per order, no server error.
 */

const CONCURRENCY = 50;
const DELIVERIES = 3;

interface Created {
  orderId: string;
  sessionId: string;
}

export interface CheckoutFigures {
  orders: number;
  seconds: number;
  createSeconds: number;
  notifySeconds: number;
  paidOrders: number;
  invoices: number;
  distinctInvoiceNumbers: number;
  gaplessFromOne: boolean;
  paidPaymentsPerOrder: string;
  statuses: Record<string, number>;
  serverErrors: number;
}

async function inParallel<T>(items: T[], limit: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await run(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
  return items;
}

export async function benchCheckout(server: BenchServer, orders: number): Promise<CheckoutFigures> {
  // The bench signs the sandbox's notifications with the server's secret, as the sandbox gateway does.
  process.env.APP_SECRET = server.appSecret;
  const { signSandboxPayload, SANDBOX_SIGNATURE_HEADER } = await import('../../app/server/payments/sandbox.server');
  const client = new pg.Client({ connectionString: await server.databaseUrl() });
  await client.connect();
  const statuses: Record<string, number> = {};
  const count = (status: number) => {
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  try {
    const { rows } = await client.query<{ version: number }>('select version from price_lists where is_active');
    const priceListVersion = String(rows[0]?.version ?? 1);
    const ip = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

    const started = performance.now();
    const created: Created[] = [];
    await inParallel(
      Array.from({ length: orders }, (_, i) => i),
      CONCURRENCY,
      async (i) => {
        const form = new URLSearchParams({
          support: 'photos',
          'photos.quantity': String(50 + (i % 200)),
          delivery: 'digital',
          intent: 'order',
          priceListVersion,
        });
        const order = await fetch(`${server.url}/configurateur`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url, 'x-forwarded-for': ip() },
          body: form,
        });
        count(order.status);
        await order.arrayBuffer();
        const location = order.headers.get('location');
        const orderId = location ? new URL(location, server.url).searchParams.get('orderId') : null;
        const cookie = order.headers
          .getSetCookie()
          .map((c) => c.split(';')[0] ?? '')
          .find((c) => c.startsWith('sv_order_'));
        if (order.status !== 302 || !orderId || !cookie) return;
        const session = await fetch(`${server.url}/api/create-checkout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: server.url, cookie, 'x-forwarded-for': ip() },
          body: JSON.stringify({ orderId, customerEmail: `banc-${i}@example.fr`, returnUrl: '/confirmation' }),
        });
        count(session.status);
        const body = (await session.json().catch(() => ({}))) as { sessionId?: string };
        if (session.status === 200 && body.sessionId) created.push({ orderId, sessionId: body.sessionId });
      },
    );
    const createSeconds = (performance.now() - started) / 1000;

    // The amount of each session, as the gateway knows it.
    const amounts = new Map(
      (
        await client.query<{ provider_ref: string; amount: number }>(
          `select provider_ref, amount from payments where provider = 'sandbox' and provider_ref = any($1)`,
          [created.map((c) => c.sessionId)],
        )
      ).rows.map((r) => [r.provider_ref, r.amount]),
    );
    const deliveries = shuffle(
      created.flatMap((c) => {
        const body = JSON.stringify({
          id: `sbxevt_${c.sessionId}_succeeded`,
          type: 'payment.succeeded',
          created: Math.floor(Date.now() / 1000),
          data: {
            sessionId: c.sessionId,
            orderId: c.orderId,
            amountCents: amounts.get(c.sessionId) ?? 0,
            currency: 'EUR',
            card: { brand: 'visa', last4: '4242' },
          },
        });
        return Array.from({ length: DELIVERIES }, () => body);
      }),
    );
    const notifying = performance.now();
    await inParallel(deliveries, CONCURRENCY, async (body) => {
      const response = await fetch(`${server.url}/api/webhooks/sandbox`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signSandboxPayload(body) },
        body,
      });
      count(response.status);
      await response.arrayBuffer();
    });
    const finished = performance.now();

    const ids = created.map((c) => c.orderId);
    const one = async (sql: string, params: unknown[] = []) =>
      (await client.query(sql, params)).rows[0] as Record<string, string>;
    const paid = await one(`select count(*)::int as n from orders where payment_status = 'paid' and id = any($1)`, [
      ids,
    ]);
    const invoices = await one(
      `select count(*)::int as n, count(distinct number)::int as distinct_numbers,
         min(substring(number from '(\\d+)$')::int) as low, max(substring(number from '(\\d+)$')::int) as high,
         count(distinct substring(number from '^FA-(\\d{4})'))::int as years
       from invoices`,
    );
    const perOrder = await client.query<{ paid: number; orders: number }>(
      `select paid, count(*)::int as orders from (
         select o.id, count(p.id) filter (where p.status = 'paid')::int as paid
         from orders o left join payments p on p.order_id = o.id where o.id = any($1) group by o.id) t
       group by paid order by paid`,
      [ids],
    );
    const n = Number(invoices.n);
    return {
      orders,
      seconds: (finished - started) / 1000,
      createSeconds,
      notifySeconds: (finished - notifying) / 1000,
      paidOrders: Number(paid.n),
      invoices: n,
      distinctInvoiceNumbers: Number(invoices.distinct_numbers),
      gaplessFromOne:
        Number(invoices.years) === 1 && Number(invoices.low) === 1 && Number(invoices.high) === n && n > 0,
      paidPaymentsPerOrder: perOrder.rows.map((r) => `${r.orders} order(s) with ${r.paid} paid payment(s)`).join(', '),
      statuses,
      serverErrors: Object.entries(statuses)
        .filter(([status]) => Number(status) >= 500)
        .reduce((sum, [, k]) => sum + k, 0),
    };
  } finally {
    await client.end();
  }
}

export function checkoutSection(f: CheckoutFigures): string {
  const ok = (held: boolean) => (held ? '✓' : '✗');
  const statuses = Object.entries(f.statuses)
    .map(([status, k]) => `${status}: ${k}`)
    .join(', ');
  return `${f.orders} guest orders on a fresh shop, ${CONCURRENCY} at a time: the configurator's form post
(\`POST /configurateur\`, the order and its access cookie), \`POST /api/create-checkout\` (a sandbox
payment session), then each session's signed \`payment.succeeded\` notification delivered
${DELIVERIES} times to \`/api/webhooks/sandbox\`, the ${f.orders * DELIVERIES} deliveries shuffled together and sent ${CONCURRENCY} at a
time. Checked in SQL afterwards.

| figure | value |
|---|---|
| orders created and paid per second (whole run) | ${(f.orders / f.seconds).toFixed(1)} (${f.seconds.toFixed(1)} s) |
| orders + payment sessions created | ${f.createSeconds.toFixed(1)} s (${(f.orders / f.createSeconds).toFixed(1)} orders/s) |
| notifications delivered | ${f.notifySeconds.toFixed(1)} s (${((f.orders * DELIVERIES) / f.notifySeconds).toFixed(1)} deliveries/s) |
| paid orders | ${f.paidOrders} ${ok(f.paidOrders === f.orders)} |
| invoices | ${f.invoices}, ${f.distinctInvoiceNumbers} distinct numbers, ${f.gaplessFromOne ? 'numbered 1 to N without gap' : 'NOT gapless from 1'} ${ok(f.invoices === f.orders && f.distinctInvoiceNumbers === f.orders && f.gaplessFromOne)} |
| payments | ${f.paidPaymentsPerOrder} |
| responses >= 500 | ${f.serverErrors} ${ok(f.serverErrors === 0)} |
| HTTP statuses | ${statuses} |`;
}
