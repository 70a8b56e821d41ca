import { randomBytes } from 'node:crypto';
import type { Role } from '~/domain/account/session-user';
import { auth } from '../../auth/auth.server';
import { db } from '../../db/client.server';
import { invoices, orderEvents, orderItems, orders } from '../../db/schema';
import { setUserRole } from '../../users.server';

// Better Auth's types do not know our `acceptTerms` (auth.server.ts requires it at sign-up).
const TERMS_ACCEPTED = { acceptTerms: true };

/*
 * Accounts, sessions and orders for the integration tests of the account and order modules, made
 * through the real code paths (Better Auth sign-up and sign-in, Drizzle inserts of the schema).
 * Vitest sets BASE_URL to "/": callers set an absolute BASE_URL before the first import of env.
 */

export const TEST_PASSWORD = 'Tournesol-Bleu-42';
export const TEST_BASE = 'http://localhost:3000';

export interface TestAccount {
  id: string;
  email: string;
  /** "name=value" of a session cookie. */
  cookie: string;
}

export async function registeredAccount(
  role: Role = 'customer',
  names: { firstName?: string; lastName?: string } = {},
): Promise<TestAccount> {
  const email = `client-${randomBytes(5).toString('hex')}@example.fr`;
  const { firstName = 'Jeanne', lastName = 'Martin' } = names;
  const created = await auth().api.signUpEmail({
    body: { ...TERMS_ACCEPTED, email, password: TEST_PASSWORD, name: '', firstName, lastName },
  });
  if (role !== 'customer') await setUserRole(email, role);
  const response = await auth().api.signInEmail({ body: { email, password: TEST_PASSWORD }, asResponse: true });
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((c) => c.includes('session_token='));
  if (!cookie) throw new Error(`no session cookie for ${email}`);
  return { id: created.user.id, email, cookie };
}

export function requestWith(path: string, cookies: string[] = []): Request {
  return new Request(`${TEST_BASE}${path}`, { headers: cookies.length ? { cookie: cookies.join('; ') } : {} });
}

let sequence = 0;

export interface TestOrderOptions {
  userId?: string | null;
  guestEmail?: string | null;
  accessTokenHash?: string | null;
  createdAt?: Date;
  status?: 'pending' | 'processing' | 'completed' | 'shipped' | 'canceled';
  withInvoice?: boolean;
}

/** An order of two lines (photos, VHS) with its creation event, and optionally an invoice. */
export async function insertOrder({
  userId = null,
  guestEmail = null,
  accessTokenHash = null,
  createdAt = new Date(),
  status = 'pending',
  withInvoice = false,
}: TestOrderOptions = {}) {
  sequence += 1;
  const suffix = `${process.pid}${sequence}`.padStart(6, '0');
  const [order] = await db()
    .insert(orders)
    .values({
      number: `SV-2026-T${suffix}-${randomBytes(2).toString('hex')}`,
      createdAt,
      placedAt: createdAt,
      userId,
      guestEmail,
      guestFirstName: guestEmail ? 'Paul' : null,
      guestLastName: guestEmail ? 'Invité' : null,
      accessTokenHash,
      status,
      basePriceCents: 7600,
      totalPriceCents: 7600,
    })
    .returning();
  if (!order) throw new Error('order not inserted');
  await db()
    .insert(orderItems)
    .values([
      { orderId: order.id, position: 0, type: 'photos', quantity: 120, unitPriceCents: 35, lineTotalCents: 4200 },
      { orderId: order.id, position: 1, type: 'vhs', quantity: 2, unitPriceCents: 1700, lineTotalCents: 3400 },
    ]);
  await db()
    .insert(orderEvents)
    .values({ orderId: order.id, at: createdAt, actor: userId ?? 'guest', kind: 'created', to: 'pending' });
  let invoiceNumber: string | null = null;
  if (withInvoice) {
    invoiceNumber = `FA-2026-T${suffix}-${randomBytes(2).toString('hex')}`;
    await db()
      .insert(invoices)
      .values({ number: invoiceNumber, orderId: order.id, amountCents: 7600, vatCents: 1267, snapshot: { lines: [] } });
  }
  return { ...order, invoiceNumber };
}
