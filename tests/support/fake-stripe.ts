import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * A local HTTP server that answers like Stripe's API for the calls the shop makes (Checkout
 * Sessions: create, retrieve, expire; refunds of a paid session's payment intent; the balance for
 * the back office's probe), so that the real
 * SDK can be tested offline: point the shop at it with STRIPE_API_URL (the SDK's host, port and
 * protocol options). It also plays Stripe's webhook side: events built from its sessions, signed
 * with the SDK's own test helper (stripe.webhooks.generateTestHeaderString).
 *
 * Request bodies are form-encoded with Stripe's bracket notation (line_items[0][price_data][...]);
 * errors have Stripe's shape ({ error: { type, message, code } }) and statuses (401 for a bad key).
 */

export interface FakeStripeRequest {
  method: string;
  path: string;
  params: Record<string, unknown>;
  apiKey: string | null;
  idempotencyKey: string | null;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  expires_at: number;
  created: number;
  livemode: false;
  payment_intent: string | null;
  line_items: { quantity: number; unit_amount: number; name: string; description: string | null }[];
}

/** The payment intent of a paid session: what it took and what was refunded of it. */
export interface FakePaymentIntent {
  id: string;
  amount: number;
  amount_refunded: number;
  latest_charge: string;
  currency: string;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  status: 'pending' | 'succeeded' | 'failed' | 'canceled' | 'requires_action';
}

export interface FakeStripe {
  url: string;
  requests: FakeStripeRequest[];
  sessions: Map<string, FakeSession>;
  paymentIntents: Map<string, FakePaymentIntent>;
  refunds: Map<string, FakeRefund>;
  /** Keys the fake accepts (Bearer). */
  apiKeys: Set<string>;
  /** A Stripe event about one of the fake's sessions, as Stripe would send it to a webhook endpoint. */
  event(type: string, sessionId: string, changes?: Partial<FakeSession>): Stripe.Event;
  /** The JSON body and its Stripe-Signature header, signed by the SDK's test helper. */
  sign(event: object, secret: string, timestamp?: number): { payload: string; header: string };
  close(): Promise<void>;
}

/** Stripe's bracket notation back into objects and arrays: a[b][0][c]=1 -> { a: { b: [{ c: '1' }] } }. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const match = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(key);
    if (!match) continue;
    const path = [match[1] as string, ...[...(match[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] as string)];
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((part, i) => {
      const last = i === path.length - 1;
      const next = path[i + 1];
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      container[part] ??= next !== undefined && /^\d+$/.test(next) ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return root;
}

function stripeError(res: http.ServerResponse, status: number, type: string, message: string, code?: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
  res.end(JSON.stringify({ error: { type, message, ...(code ? { code } : {}) } }));
}

function send(res: http.ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
  res.end(JSON.stringify(body));
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

function publicSession(session: FakeSession) {
  const { line_items: _, ...rest } = session;
  return rest;
}

interface RefundParams {
  payment_intent?: string;
  charge?: string;
  amount?: string;
  reason?: string;
  metadata?: Record<string, string>;
}

interface StripeErrorBody {
  type: string;
  message: string;
  code: string;
  param?: string;
}

/**
 * The amount a refund may take, or Stripe's refusal, checked in Stripe's order: a payment named,
 * found, not refunded yet, a positive whole amount within what remains, a reason Stripe knows.
 */
function checkRefund(
  p: RefundParams,
  intent: FakePaymentIntent | undefined,
): { amount: number; intent: FakePaymentIntent } | { status: number; error: StripeErrorBody } {
  const invalid = (error: Omit<StripeErrorBody, 'type'>) => ({
    status: 400,
    error: { type: 'invalid_request_error', ...error },
  });
  if (!p.payment_intent && !p.charge) {
    return invalid({
      message: 'One of the following params should be provided for this request: payment_intent or charge.',
      code: 'parameter_missing',
    });
  }
  if (!intent) {
    return {
      status: 404,
      error: {
        type: 'invalid_request_error',
        message: `No such payment_intent: '${p.payment_intent ?? p.charge}'`,
        code: 'resource_missing',
        param: 'payment_intent',
      },
    };
  }
  const remaining = intent.amount - intent.amount_refunded;
  if (remaining === 0) {
    return invalid({
      message: `Charge ${intent.latest_charge} has already been refunded.`,
      code: 'charge_already_refunded',
    });
  }
  const amount = p.amount === undefined ? remaining : Number(p.amount);
  if (!Number.isInteger(amount) || amount < 1) {
    return invalid({ message: 'Invalid positive integer', code: 'parameter_invalid_integer', param: 'amount' });
  }
  if (amount > remaining) {
    const euros = (cents: number) => `€${(cents / 100).toFixed(2)}`;
    return invalid({
      message: `Refund amount (${euros(amount)}) is greater than unrefunded amount on charge (${euros(remaining)})`,
      code: 'amount_too_large',
      param: 'amount',
    });
  }
  if (p.reason && !['duplicate', 'fraudulent', 'requested_by_customer'].includes(p.reason)) {
    return invalid({ message: 'Invalid reason', code: 'parameter_invalid_empty', param: 'reason' });
  }
  return { amount, intent };
}

interface SessionParams {
  mode?: string;
  success_url?: string;
  cancel_url?: string;
  client_reference_id?: string;
  customer_email?: string;
  metadata?: Record<string, string>;
  line_items?: {
    quantity?: string;
    price_data?: {
      currency?: string;
      unit_amount?: string;
      product_data?: { name?: string; description?: string };
    };
  }[];
}

/** The session's line items, or null when Stripe would refuse them (none, a bad quantity or amount, not in euros, no name). */
function lineItemsOf(p: SessionParams) {
  const items = (p.line_items ?? []).map((item) => ({
    quantity: Number(item.quantity),
    unit_amount: Number(item.price_data?.unit_amount),
    currency: item.price_data?.currency,
    name: item.price_data?.product_data?.name ?? '',
    description: item.price_data?.product_data?.description ?? null,
  }));
  const invalid = (i: (typeof items)[number]) =>
    !Number.isInteger(i.quantity) ||
    i.quantity < 1 ||
    !Number.isInteger(i.unit_amount) ||
    i.unit_amount < 0 ||
    i.currency !== 'eur' ||
    i.name === '';
  return items.length === 0 || items.some(invalid) ? null : items;
}

export async function startFakeStripe({ apiKeys = ['sk_test_fake_soovenirs_key'] } = {}): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const paymentIntents = new Map<string, FakePaymentIntent>();
  const refunds = new Map<string, FakeRefund>();
  /** Stripe replays the first answer to a request made again with the same Idempotency-Key. */
  const idempotent = new Map<string, { status: number; body: string }>();
  const keys = new Set(apiKeys);

  /** A session that became paid gets its payment intent, as on Stripe. */
  function settle(session: FakeSession) {
    if (session.payment_status !== 'paid' || session.payment_intent) return;
    const intent: FakePaymentIntent = {
      id: id('pi'),
      amount: session.amount_total,
      amount_refunded: 0,
      latest_charge: id('ch'),
      currency: session.currency,
    };
    paymentIntents.set(intent.id, intent);
    session.payment_intent = intent.id;
  }

  /** POST /v1/refunds, answered (and remembered by idempotency key) as Stripe would. */
  function refund(res: http.ServerResponse, apiKey: string, key: string | null, params: Record<string, unknown>) {
    const replay = key ? idempotent.get(`${apiKey}:${key}`) : undefined;
    if (replay) {
      res.writeHead(replay.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
      return res.end(replay.body);
    }
    const answer = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      if (key) idempotent.set(`${apiKey}:${key}`, { status, body: text });
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
      res.end(text);
    };
    const p = params as RefundParams;
    const intent = p.payment_intent
      ? paymentIntents.get(p.payment_intent)
      : [...paymentIntents.values()].find((pi) => pi.latest_charge === p.charge);
    const checked = checkRefund(p, intent);
    if ('error' in checked) return answer(checked.status, { error: checked.error });
    const { amount, intent: refunded } = checked;
    refunded.amount_refunded += amount;
    const made: FakeRefund = {
      id: id('re'),
      object: 'refund',
      amount,
      balance_transaction: id('txn'),
      charge: refunded.latest_charge,
      created: Math.floor(Date.now() / 1000),
      currency: refunded.currency,
      metadata: p.metadata ?? {},
      payment_intent: refunded.id,
      reason: p.reason ?? null,
      status: 'succeeded',
    };
    refunds.set(made.id, made);
    return answer(200, made);
  }

  /** POST /v1/checkout/sessions: checks the line items as Stripe does, then an open session. */
  function createSession(res: http.ServerResponse, params: Record<string, unknown>) {
    const p = params as SessionParams;
    if (p.mode !== 'payment')
      return stripeError(res, 400, 'invalid_request_error', 'mode must be payment', 'parameter_invalid');
    if (!p.success_url || !p.cancel_url) {
      return stripeError(
        res,
        400,
        'invalid_request_error',
        'Missing required param: success_url.',
        'parameter_missing',
      );
    }
    const items = lineItemsOf(p);
    if (!items) return stripeError(res, 400, 'invalid_request_error', 'Invalid line_items', 'parameter_invalid');
    const total = items.reduce((sum, i) => sum + i.quantity * i.unit_amount, 0);
    const sessionId = id('cs_test');
    const now = Math.floor(Date.now() / 1000);
    const session: FakeSession = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      amount_subtotal: total,
      currency: 'eur',
      client_reference_id: p.client_reference_id ?? null,
      customer_email: p.customer_email ?? null,
      metadata: p.metadata ?? {},
      success_url: p.success_url,
      cancel_url: p.cancel_url,
      url: `https://checkout.stripe.com/c/pay/${sessionId}`,
      expires_at: now + 24 * 3600,
      created: now,
      livemode: false,
      payment_intent: null,
      line_items: items.map(({ quantity, unit_amount, name, description }) => ({
        quantity,
        unit_amount,
        name,
        description,
      })),
    };
    sessions.set(sessionId, session);
    return send(res, publicSession(session));
  }

  /** POST /v1/checkout/sessions/:id/expire: only an open session. */
  function expireSession(res: http.ServerResponse, sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) return stripeError(res, 404, 'invalid_request_error', 'No such checkout.session', 'resource_missing');
    if (session.status !== 'open') {
      return stripeError(
        res,
        400,
        'invalid_request_error',
        'Only open sessions can be expired.',
        'checkout_session_not_open',
      );
    }
    session.status = 'expired';
    session.url = null;
    return send(res, publicSession(session));
  }

  /** GET /v1/checkout/sessions/:id: a paid session names its payment intent. */
  function retrieveSession(res: http.ServerResponse, sessionId: string) {
    const session = sessions.get(sessionId);
    if (!session) return stripeError(res, 404, 'invalid_request_error', 'No such checkout.session', 'resource_missing');
    settle(session);
    return send(res, publicSession(session));
  }

  /** Every request is recorded (tests read them): its path, its parameters, its key. */
  function record(req: http.IncomingMessage, body: string): FakeStripeRequest {
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const authorization = req.headers.authorization ?? '';
    const recorded: FakeStripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: req.method === 'GET' ? Object.fromEntries(url.searchParams) : parseStripeForm(body),
      apiKey: authorization.startsWith('Bearer ') ? authorization.slice(7) : null,
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
    };
    requests.push(recorded);
    return recorded;
  }

  /** Refused without a known key, then routed. */
  function route(req: http.IncomingMessage, res: http.ServerResponse, body: string) {
    const { path, params, apiKey, idempotencyKey } = record(req, body);
    if (!apiKey || !keys.has(apiKey)) {
      return stripeError(
        res,
        401,
        'invalid_request_error',
        `Invalid API Key provided: ${apiKey ?? ''}`,
        'api_key_invalid',
      );
    }
    if (req.method === 'POST' && path === '/v1/refunds') return refund(res, apiKey, idempotencyKey, params);
    if (req.method === 'GET' && path === '/v1/balance') {
      return send(res, {
        object: 'balance',
        available: [{ amount: 0, currency: 'eur', source_types: { card: 0 } }],
        pending: [],
        livemode: false,
      });
    }
    if (req.method === 'POST' && path === '/v1/checkout/sessions') return createSession(res, params);
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (req.method === 'POST' && expire) return expireSession(res, expire[1] as string);
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && retrieve) return retrieveSession(res, retrieve[1] as string);
    return stripeError(res, 404, 'invalid_request_error', `Unrecognized request URL (${req.method}: ${path}).`);
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => route(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    paymentIntents,
    refunds,
    apiKeys: keys,
    event(type, sessionId, changes = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`fake Stripe: no session ${sessionId}`);
      Object.assign(session, changes);
      settle(session);
      return {
        id: id('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created: Math.floor(Date.now() / 1000),
        type,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        data: { object: publicSession({ ...session }) },
      } as unknown as Stripe.Event;
    },
    sign(event, secret, timestamp) {
      const payload = JSON.stringify(event, null, 2);
      const header = Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp ? { timestamp } : {}) });
      return { payload, header };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
