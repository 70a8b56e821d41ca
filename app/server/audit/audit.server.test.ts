import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { asDatabaseOwner } from '../../../tests/support/databases';
import { insertTestOrder } from '../../../tests/support/orders';
import { updateCustomerDetails } from '../admin/customers.server';
import { sendOrderMessage } from '../admin/order-messages.server';
import { addOrderNote, changeOrderStatus } from '../admin/orders.server';
import { resendEmail } from '../admin/outbox.server';
import { decidePayments } from '../admin/payments.server';
import { changeStaffMember, inviteStaff, revokeInvitation } from '../admin/staff.server';
import { db } from '../db/client.server';
import { staffInvitations, user } from '../db/schema';
import { saveEmailConfig } from '../email/email-config.server';
import { log } from '../log.server';
import { applyTransition } from '../orders/lifecycle.server';
import { refundOrder } from '../orders/refunds.server';
import { savePaymentConfig } from '../payments/config.server';
import { publishPriceList } from '../pricing/price-lists.server';
import { deleteExpiredAuditEntries, listJournal, recordAudit } from './audit.server';

/*
 * The audit log on the real PostgreSQL: append-only in the database (the trigger of migration
 * 0010), written in the caller's transaction, and by every back-office action that changes
 * something: the order lifecycle (staff only), prices, settings (secrets never written).
 */

log.level = 'silent';
process.env.BASE_URL = 'https://www.soovenirs.test';
const databaseUrl = () => process.env.DATABASE_URL as string;

let staffId: string;
let customerId: string;

type Row = {
  id: number;
  actor_id: string | null;
  actor_name: string;
  actor_role: string;
  kind: string;
  subject: string;
  subject_label: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  keep_until: string;
};

async function entries(where = sql`true`): Promise<Row[]> {
  const result = await db().execute<Row>(sql`
    select id, actor_id, actor_name, actor_role, kind, subject, subject_label, before, after, keep_until::text
    from audit_log where ${where} order by id`);
  return result.rows;
}

const about = (subject: string) => entries(sql`subject = ${subject}`);

/** PostgreSQL's refusal (drizzle wraps it in a « Failed query » error whose cause it is). */
async function refusal(statement: ReturnType<typeof sql>): Promise<string> {
  const error = await db()
    .execute(statement)
    .then(() => null)
    .catch((e: unknown) => e as Error & { cause?: Error });
  return error?.cause?.message ?? error?.message ?? 'accepted';
}

beforeAll(async () => {
  staffId = randomUUID();
  customerId = randomUUID();
  await db()
    .insert(user)
    .values([
      {
        id: staffId,
        name: 'x',
        firstName: 'Camille',
        lastName: 'Martin',
        email: `camille-${staffId}@soovenirs.test`,
        role: 'admin',
      },
      { id: customerId, name: 'Client', email: `client-${customerId}@example.fr`, role: 'customer' },
    ]);
});

describe('the audit_log table', () => {
  it('refuses any UPDATE, and a DELETE while the entry is kept, even to its owner', async () => {
    await recordAudit(db(), { actor: staffId, kind: 'order.note', subject: 'trigger-test', after: { note: 'x' } });
    const [entry] = await about('trigger-test');
    expect(entry).toMatchObject({ actor_name: 'Camille Martin', actor_role: 'admin' });
    const asOwner = (text: string) =>
      asDatabaseOwner(text).then(
        () => null,
        (error: Error) => error.message,
      );
    expect(await asOwner(`update audit_log set actor_name = 'Quelqu’un' where id = ${entry?.id}`)).toMatch(
      /append-only/,
    );
    expect(await asOwner(`delete from audit_log where id = ${entry?.id}`)).toMatch(/kept until/);
    expect(await asOwner('truncate audit_log')).toMatch(/append-only/);
    expect(await about('trigger-test')).toEqual([expect.objectContaining({ actor_name: 'Camille Martin' })]);
  });

  it('cannot be opened up by the shop itself: its database role is no superuser and cannot touch the triggers', async () => {
    const role = await db().execute<{ superuser: boolean; owner: string; me: string }>(sql`
      select (select rolsuper from pg_roles where rolname = current_user) as superuser,
        (select tableowner from pg_tables where tablename = 'audit_log') as owner, current_user as me`);
    expect(role.rows[0]?.superuser).toBe(false);
    expect(role.rows[0]?.owner).not.toBe(role.rows[0]?.me);

    await recordAudit(db(), { actor: staffId, kind: 'order.note', subject: 'role-test', after: { note: 'x' } });
    const [entry] = await about('role-test');
    expect(await refusal(sql`alter table audit_log disable trigger all`)).toMatch(/must be owner/);
    expect(await refusal(sql`alter table audit_log disable trigger audit_log_append_only`)).toMatch(/must be owner/);
    expect(await refusal(sql`drop trigger audit_log_append_only on audit_log`)).toMatch(/must be owner/);
    expect(await refusal(sql`drop function audit_log_append_only() cascade`)).toMatch(/must be owner/);
    expect(await refusal(sql`set session_replication_role = replica`)).toMatch(/permission denied/);
    expect(await refusal(sql`update audit_log set actor_name = 'Quelqu’un' where id = ${entry?.id}`)).toMatch(
      /permission denied|append-only/,
    );
    expect(await refusal(sql`delete from audit_log where id = ${entry?.id}`)).toMatch(/kept until/);
    expect(await refusal(sql`truncate audit_log`)).toMatch(/permission denied|append-only/);
    expect(await about('role-test')).toEqual([
      expect.objectContaining({ actor_name: 'Camille Martin', after: { note: 'x' } }),
    ]);
  });

  it('lets an entry past its retention period be deleted', async () => {
    await db().execute(sql`
      insert into audit_log (at, actor_name, actor_role, kind, subject, keep_until)
      values (now() - interval '3 years', 'Système', 'system', 'order.stage', 'expired-test', current_date - 1)`);
    await db().execute(sql`delete from audit_log where subject = 'expired-test'`);
    expect(await about('expired-test')).toEqual([]);
  });

  it('is cleared by the housekeeping of the entries past their retention, and only those', async () => {
    await db().execute(sql`
      insert into audit_log (at, actor_name, actor_role, kind, subject, keep_until) values
        (now() - interval '3 years', 'Système', 'system', 'order.stage', 'housekeeping-test', current_date - 1),
        (now() - interval '3 years', 'Système', 'system', 'order.refund', 'housekeeping-test', current_date + 365)`);
    expect(await deleteExpiredAuditEntries()).toBeGreaterThanOrEqual(1);
    expect((await about('housekeeping-test')).map((row) => row.kind)).toEqual(['order.refund']);
    expect(await deleteExpiredAuditEntries()).toBe(0);
  });

  it('leaves nothing when the transaction that recorded is rolled back', async () => {
    await expect(
      db().transaction(async (tx) => {
        await recordAudit(tx, { actor: staffId, kind: 'price.change', subject: 'rolled-back' });
        throw new Error('the action failed after recording');
      }),
    ).rejects.toThrow('the action failed');
    expect(await about('rolled-back')).toEqual([]);
  });

  it('keeps accounting entries 10 years and the others 2', async () => {
    await recordAudit(db(), { actor: staffId, kind: 'order.refund', subject: 'retention-test' });
    await recordAudit(db(), { actor: staffId, kind: 'order.stage', subject: 'retention-test' });
    const year = new Date().getUTCFullYear();
    const [refund, stage] = await about('retention-test');
    expect(refund?.keep_until.slice(0, 4)).toBe(String(year + 10));
    expect(stage?.keep_until.slice(0, 4)).toBe(String(year + 2));
  });
});

describe('the order lifecycle', () => {
  it('writes one entry per transition applied by a staff member, with before and after', async () => {
    const order = await insertTestOrder(databaseUrl());
    const result = await changeOrderStatus({
      refundRight: true,
      orderId: order.id,
      status: 'processing',
      actor: { id: staffId },
      startBeforePayment: true,
    });
    expect(result).toMatchObject({ ok: true, changed: true });
    const rows = await about(order.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: staffId,
      actor_name: 'Camille Martin',
      kind: 'order.status',
      subject_label: order.number,
      before: { status: 'pending' },
      // Unpaid: the staff said explicitly that the work starts before the payment.
      after: { status: 'processing', startBeforePayment: true },
    });
  });

  it('writes nothing for a customer, a guest or the system', async () => {
    const order = await insertTestOrder(databaseUrl(), { userId: customerId });
    for (const actor of [customerId, 'customer', 'system']) {
      await applyTransition(order.id, { type: 'withdraw', withinPeriod: true }, actor);
    }
    expect(await about(order.id)).toEqual([]);
  });

  it('writes nothing when the rule book refuses', async () => {
    const order = await insertTestOrder(databaseUrl(), { status: 'canceled' });
    const result = await changeOrderStatus({
      refundRight: true,
      orderId: order.id,
      status: 'processing',
      actor: { id: staffId },
    });
    expect(result).toMatchObject({ ok: false });
    expect(await about(order.id)).toEqual([]);
  });

  it('records a payment validated, a payment rejected and a refund, with their documents, kept 10 years', async () => {
    const tenYears = String(new Date().getUTCFullYear() + 10);
    const validated = await insertTestOrder(databaseUrl());
    const rejected = await insertTestOrder(databaseUrl());
    await db().execute(
      sql`update orders set payment_method = 'transfer' where id in (${validated.id}, ${rejected.id})`,
    );
    const [validation] = await decidePayments([`o:${validated.id}`], 'validate', { id: staffId });
    expect(validation).toMatchObject({ ok: true });
    expect(await decidePayments([`o:${rejected.id}`], 'reject', { id: staffId })).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
    const refund = await refundOrder({
      orderId: validated.id,
      amountCents: 2_000,
      method: 'transfer',
      reason: 'Photos abîmées',
      actor: staffId,
    });
    expect(refund).toMatchObject({ ok: true });

    const [paid, refunded] = await about(validated.id);
    expect(paid).toMatchObject({
      kind: 'payment.validate',
      actor_name: 'Camille Martin',
      before: { paymentStatus: 'pending' },
      after: {
        paymentStatus: 'paid',
        amountCents: validated.totalCents,
        invoice: validation?.ok ? validation.invoiceNumber : 'no invoice',
      },
    });
    expect(refunded).toMatchObject({
      kind: 'order.refund',
      before: { paymentStatus: 'paid' },
      after: {
        paymentStatus: 'partially_refunded',
        amountCents: 2_000,
        creditNote: refund.ok ? refund.creditNoteNumber : 'no credit note',
        reason: 'Photos abîmées',
      },
    });
    const [failed] = await about(rejected.id);
    expect(failed).toMatchObject({ kind: 'payment.reject', after: { paymentStatus: 'failed' } });
    for (const entry of [paid, refunded, failed]) expect(entry?.keep_until.slice(0, 4)).toBe(tenYears);
  });

  it('records a message sent to the customer (to whom, about what) and an e-mail re-sent', async () => {
    const order = await insertTestOrder(databaseUrl(), { guestEmail: 'marie@example.fr' });
    const sent = await sendOrderMessage({
      orderId: order.id,
      actor: { id: staffId, firstName: 'Camille' },
      message: { subject: 'Cassette moisie', message: 'Comment souhaitez-vous procéder ?' },
    });
    expect(sent).toEqual({ ok: true, to: 'marie@example.fr' });
    const outbox = await db().execute<{ id: string }>(
      sql`select id from email_outbox where order_id = ${order.id} and template = 'order-message'`,
    );
    await db().execute(sql`update email_outbox set status = 'sent' where id = ${outbox.rows[0]?.id}`);
    expect(await resendEmail(String(outbox.rows[0]?.id), staffId)).toMatchObject({ ok: true });

    expect(await about(order.id)).toEqual([
      expect.objectContaining({
        kind: 'order.message',
        actor_name: 'Camille Martin',
        subject_label: order.number,
        after: { recipient: 'marie@example.fr', messageSubject: 'Cassette moisie' },
      }),
      expect.objectContaining({
        kind: 'email.resend',
        subject_label: order.number,
        after: { template: 'order-message', recipient: 'marie@example.fr' },
      }),
    ]);
  });

  it('records a note with its text', async () => {
    const order = await insertTestOrder(databaseUrl());
    await addOrderNote({ orderId: order.id, text: 'Bobines reçues humides.', actor: { id: staffId } });
    expect(await about(order.id)).toEqual([
      expect.objectContaining({
        kind: 'order.note',
        subject_label: order.number,
        after: { note: 'Bobines reçues humides.' },
      }),
    ]);
  });
});

describe('prices and settings', () => {
  it('records a price change as the old and new prices', async () => {
    await publishPriceList(DEFAULT_PRICE_LIST, null);
    const edited = structuredClone(DEFAULT_PRICE_LIST);
    edited.supports.photos.basePrice = 38;
    const published = await publishPriceList(edited, staffId);
    const rows = await entries(sql`kind = 'price.change'`);
    expect(rows.at(-1)).toMatchObject({
      actor_id: staffId,
      subject_label: `Tarifs, version ${published.version}`,
      before: { 'supports.photos.basePrice': 35 },
      after: { 'supports.photos.basePrice': 38 },
    });
  });

  it('never writes a secret: a changed password or key is « modifié »', async () => {
    const smtp = {
      enabled: true,
      senderEmail: 'no-reply@soovenirs.fr',
      senderName: 'Soovenirs',
      smtpHost: 'smtp.example.fr',
      smtpPort: 587,
      smtpUsername: 'shop',
    };
    expect((await saveEmailConfig({ ...smtp, smtpPassword: 'mot-de-passe-tres-secret' }, staffId)).success).toBe(true);
    expect((await saveEmailConfig({ ...smtp, senderName: 'Soovenirs Paris', smtpPassword: '' }, staffId)).success).toBe(
      true,
    );
    const stripeKey = 'sk_test_51Hsecretkeyforaudit0000';
    const paid = await savePaymentConfig(
      { type: 'stripe', testMode: true, apiKey: stripeKey, webhookSecret: 'whsec_auditsecret000' },
      staffId,
    );
    expect(paid.success).toBe(true);

    const email = await entries(sql`kind = 'settings.email'`);
    expect(email.at(-2)?.after).toMatchObject({ smtpHost: 'smtp.example.fr', smtpPassword: 'modifié' });
    expect(email.at(-1)).toMatchObject({
      before: { senderName: 'Soovenirs' },
      after: { senderName: 'Soovenirs Paris' },
    });
    const payment = await entries(sql`kind = 'settings.payment'`);
    expect(payment.at(-1)?.after).toMatchObject({ type: 'stripe', apiKey: 'modifié', webhookSecret: 'modifié' });

    const all = JSON.stringify(await entries());
    for (const secret of ['mot-de-passe-tres-secret', stripeKey, 'whsec_auditsecret000', '"v1.']) {
      expect(all).not.toContain(secret);
    }
  });
});

describe('the team and the customers', () => {
  it('records an invitation, its cancellation, a role change, a deactivation and a reactivation', async () => {
    const email = `operateur-${randomUUID()}@soovenirs.test`;
    expect((await inviteStaff({ email, role: 'atelier', invitedBy: staffId })).ok).toBe(true);
    const [invitation] = await db()
      .select({ id: staffInvitations.id })
      .from(staffInvitations)
      .where(eq(staffInvitations.email, email));
    expect((await revokeInvitation(invitation?.id as string, staffId)).ok).toBe(true);
    expect(await about(email)).toMatchObject([
      { kind: 'staff.invite', actor_id: staffId, before: null, after: { recipient: email, role: 'Atelier' } },
      { kind: 'staff.revoke', actor_id: staffId, before: { recipient: email, role: 'Atelier' }, after: null },
    ]);

    const memberId = randomUUID();
    await db()
      .insert(user)
      .values({ id: memberId, name: 'Léa Petit', email: `lea-${memberId}@soovenirs.test`, role: 'atelier' });
    for (const change of [
      { kind: 'role', role: 'comptabilite' },
      { kind: 'deactivate' },
      { kind: 'reactivate' },
    ] as const) {
      expect((await changeStaffMember({ actorId: staffId, userId: memberId, change })).ok).toBe(true);
    }
    expect(await about(memberId)).toMatchObject([
      { kind: 'staff.role', subject_label: 'Léa Petit', before: { role: 'Atelier' }, after: { role: 'Comptabilité' } },
      { kind: 'staff.deactivate', before: { active: true }, after: { active: false } },
      { kind: 'staff.reactivate', before: { active: false }, after: { active: true } },
    ]);
  });

  it('records a customer’s details edited from « Clients », the changed fields only', async () => {
    const details = { firstName: 'Anne', lastName: 'Durand', street: '3 rue Verte', postalCode: '69001', city: 'Lyon' };
    expect(await updateCustomerDetails(customerId, details, staffId)).toBe(true);
    expect(
      await updateCustomerDetails(customerId, { ...details, city: 'Villeurbanne', postalCode: '69100' }, staffId),
    ).toBe(true);
    const rows = await about(customerId);
    expect(rows.at(-2)).toMatchObject({ kind: 'customer.details', after: { firstName: 'Anne', city: 'Lyon' } });
    expect(rows.at(-1)).toMatchObject({
      actor_id: staffId,
      before: { postalCode: '69001', city: 'Lyon' },
      after: { postalCode: '69100', city: 'Villeurbanne' },
    });
    expect(Object.keys(rows.at(-1)?.after ?? {}).sort()).toEqual(['city', 'postalCode']);
  });
});

describe('the Journal', () => {
  it('lists newest first and filters by kind and person', async () => {
    const page = await listJournal({ person: staffId, kind: 'price.change', from: null, to: null, page: 1 });
    expect(page.entries.length).toBeGreaterThan(0);
    expect(page.entries.every((e) => e.kind === 'price.change' && e.actorName === 'Camille Martin')).toBe(true);
    const all = await listJournal({ person: null, kind: null, from: null, to: null, page: 1 });
    const times = all.entries.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });
});
