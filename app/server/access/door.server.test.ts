import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTH_ENDPOINT_ACCESS, authEndpointAccess, ROUTE_ACCESS, routeAccess } from '~/domain/staff/access-rules';
import routes from '../../routes';
import { action as ordersAction } from '../../routes/admin/orders';
import { loader as invoicePdf } from '../../routes/api/invoice-pdf';
import { insertOrder, registeredAccount, requestWith, TEST_BASE, type TestAccount } from '../account/testing/fixtures';
import { auth } from '../auth/auth.server';
import { writeConfigOption } from '../config/config-options.server';
import { db } from '../db/client.server';
import { orders, user } from '../db/schema';
import { issueCreditNote, issueInvoice } from '../invoices/invoices.server';
import { decideRequest } from './door.server';

process.env.BASE_URL = TEST_BASE;

interface RouteEntry {
  id?: string;
  file: string;
  children?: RouteEntry[];
}

/** The route ids of app/routes.ts, as React Router names them (its `id`, else its file without the extension). */
function routeIds(entries: RouteEntry[]): string[] {
  return entries.flatMap((entry) => [
    entry.id ?? entry.file.replace(/\.[jt]sx?$/, ''),
    ...routeIds(entry.children ?? []),
  ]);
}

/** The paths Better Auth serves over HTTP (its server-only calls have none). */
function authEndpointPaths(): string[] {
  return Object.values(auth().api as Record<string, { path?: string }>)
    .map((endpoint) => endpoint.path)
    .filter((path): path is string => typeof path === 'string');
}

describe('the door’s table against the code', () => {
  it('has a line for every route of app/routes.ts, and none for a route that is gone', () => {
    const ids = routeIds(routes as RouteEntry[]);
    expect(ids.length).toBeGreaterThan(80);
    expect(ids.filter((id) => !routeAccess(id))).toEqual([]);
    expect(Object.keys(ROUTE_ACCESS).filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('has a line for every endpoint Better Auth mounts, its admin plugin’s closed', () => {
    const paths = authEndpointPaths();
    expect(paths).toContain('/sign-in/email');
    const listed = (path: string) =>
      Object.hasOwn(AUTH_ENDPOINT_ACCESS, path) ||
      (path.startsWith('/admin/') && Object.hasOwn(AUTH_ENDPOINT_ACCESS, '/admin/*'));
    expect(paths.filter((path) => !listed(path))).toEqual([]);
    const admin = paths.filter((path) => path.startsWith('/admin/'));
    expect(admin.length).toBeGreaterThan(10);
    for (const path of admin) expect(authEndpointAccess(path), path).toEqual({ kind: 'closed' });
  });
});

describe('who asks, read from the session', () => {
  let accounts: Record<'admin' | 'atelier' | 'customer' | 'deactivated', TestAccount>;

  beforeAll(async () => {
    const [admin, atelier, customer, deactivated] = await Promise.all([
      registeredAccount('admin'),
      registeredAccount('atelier'),
      registeredAccount('customer'),
      registeredAccount('atelier'),
    ]);
    accounts = { admin, atelier, customer, deactivated } as typeof accounts;
    // Deactivated while its session was open (« Équipe » ends them too; the door does not rely on it).
    await db().update(user).set({ banned: true }).where(eq(user.id, deactivated.id));
  });

  const headers = (cookie?: string) => new Headers(cookie ? { cookie } : {});
  const files = ROUTE_ACCESS['routes/admin/api/order-files'].write;

  it('lets the workshop upload and refuses a deactivated member as signed out', async () => {
    expect((await decideRequest(headers(accounts.atelier.cookie), files)).decision.allow).toBe(true);
    const { decision, asker } = await decideRequest(headers(accounts.deactivated.cookie), files);
    expect(decision).toEqual({ allow: false, refusal: 'unauthenticated' });
    expect(asker.user).toBeNull();
    expect((await decideRequest(headers(accounts.customer.cookie), files)).decision).toEqual({
      allow: false,
      refusal: 'forbidden',
    });
  });

  it('holds an administrator without two-factor sign-in when the team requires it, everywhere but « Sécurité »', async () => {
    await writeConfigOption('staff_security', { adminTwoFactorRequired: true });
    try {
      const admin = headers(accounts.admin.cookie);
      expect((await decideRequest(admin, files)).decision).toEqual({ allow: false, refusal: 'two-factor' });
      expect((await decideRequest(admin, authEndpointAccess('/list-sessions'))).decision.allow).toBe(false);
      const security = ROUTE_ACCESS['routes/admin/security'];
      expect((await decideRequest(admin, security.read, { whileHeldForTwoFactor: true })).decision.allow).toBe(true);
      // The workshop is not held: the rule is the administrators'.
      expect((await decideRequest(headers(accounts.atelier.cookie), files)).decision.allow).toBe(true);
    } finally {
      await db().execute(sql`delete from config_options where option_name = 'staff_security'`);
    }
  });
});

describe('the regressions the door closed (decision 019)', () => {
  let accountant: TestAccount;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    [accountant, owner, stranger] = await Promise.all([
      registeredAccount('comptabilite'),
      registeredAccount('customer'),
      registeredAccount('customer'),
    ]);
  });

  it('the accountant opens the invoice and the credit note of another customer’s order', async () => {
    const order = await insertOrder({ userId: owner.id });
    const creditNote = await db().transaction(async (tx) => {
      await issueInvoice(tx, { orderId: order.id, actor: 'system', payment: { method: 'card', paidAt: new Date() } });
      return issueCreditNote(tx, { orderId: order.id, actor: 'system', reason: 'Geste commercial', amountCents: 500 });
    });
    const pdf = async (cookie: string, query = '') => {
      const request = requestWith(`/facture/${order.id}/pdf${query}`, [cookie]);
      try {
        return await invoicePdf({ request, params: { orderId: order.id } } as Parameters<typeof invoicePdf>[0]);
      } catch (thrown) {
        return thrown as { init?: { status?: number } };
      }
    };
    for (const query of ['', `?avoir=${creditNote?.number}`]) {
      const answer = (await pdf(accountant.cookie, query)) as Response;
      expect(answer.status, query).toBe(200);
      expect(answer.headers.get('content-type'), query).toBe('application/pdf');
      // Another customer still gets the 404 of an order that does not exist.
      expect((await pdf(stranger.cookie, query)) as { init?: { status?: number } }).toMatchObject({
        init: { status: 404 },
      });
    }
  });

  it('an accountant posting a status with an empty refundAmount is refused and nothing changes', async () => {
    const order = await insertOrder({ userId: owner.id, status: 'pending' });
    const form = new URLSearchParams({ intent: 'status', orderId: order.id, status: 'shipped', refundAmount: '' });
    const request = new Request(`${TEST_BASE}/admin?index`, {
      method: 'POST',
      headers: { cookie: accountant.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const refused = await ordersAction({ request, params: {} } as Parameters<typeof ordersAction>[0]).catch(
      (thrown: { init?: { status?: number }; data?: unknown }) => thrown,
    );
    expect(refused).toMatchObject({ init: { status: 403 }, data: { access: 'denied' } });
    const [row] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(row).toEqual({ status: 'pending' });
  });
});
