import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { orders } from '../db/schema';
import { log } from '../log.server';
import {
  enqueueOrderStatusEmail,
  NO_RECIPIENT_ERROR,
  NOTIFICATIONS_DISABLED_ERROR,
  ORDER_NOT_FOUND_ERROR,
  STATUS_EMAIL_DEFAULT_ERROR,
  sendOrderStatusEmail,
} from './order-status-email.server';
import { configureSmtpFor, outboxRows, resetEmailState, TEST_BASE_URL, workerOptionsFor } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox } from './worker.server';

process.env.BASE_URL = TEST_BASE_URL;
// One test provokes a database error on purpose; its error log is expected.
log.level = 'silent';

let smtp: TestSmtpServer;
let orderId: string;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
  const [order] = await db().insert(orders).values({ number: 'SV-2026-000042' }).returning({ id: orders.id });
  orderId = order?.id as string;
});

afterAll(async () => {
  await smtp.stop();
});

beforeEach(async () => {
  await resetEmailState(smtp);
});

const input = (status: string, eventKey?: string) => ({
  orderId,
  email: 'marie.curie@exemple.fr',
  customer: 'Marie Curie',
  status,
  eventKey,
});

describe('order status e-mail', () => {
  it.each([
    [
      'processing',
      'Commande SV-2026-000042 en cours de traitement',
      'Votre commande est actuellement en cours de traitement par notre équipe.',
    ],
    ['completed', 'Commande SV-2026-000042 traitée', 'Votre commande a été traitée avec succès.'],
    ['shipped', 'Commande SV-2026-000042 expédiée', 'Votre commande a été expédiée et est en route.'],
    ['canceled', 'Commande SV-2026-000042 annulée', 'Votre commande a été annulée.'],
    ['pending', 'Mise à jour de votre commande SV-2026-000042', 'Le statut de votre commande a été mis à jour.'],
  ])('%s: sends its wording to the customer', async (status, subject, message) => {
    await configureSmtpFor(smtp, 'starttls');
    const result = await sendOrderStatusEmail(input(status));
    expect(result).toMatchObject({ success: true, status: 'queued', duplicate: false });
    await drainOutbox(workerOptionsFor(smtp));
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.subject).toBe(subject);
    expect(smtp.messages[0]?.text).toContain(message);
    expect(smtp.messages[0]?.text).toContain('Bonjour Marie Curie,');
    expect((await outboxRows())[0]).toMatchObject({ order_id: orderId, status: 'sent' });
  });

  it('sends nothing when e-mail notifications are disabled', async () => {
    await configureSmtpFor(smtp, 'starttls', { enabled: false });
    const result = await sendOrderStatusEmail(input('shipped'));
    expect(result).toEqual({ success: false, skipped: 'notifications-disabled', error: NOTIFICATIONS_DISABLED_ERROR });
    await drainOutbox(workerOptionsFor(smtp));
    expect(await outboxRows()).toEqual([]);
    expect(smtp.messages).toEqual([]);
  });

  it('sends nothing when the order has no e-mail address', async () => {
    await configureSmtpFor(smtp, 'starttls');
    expect(await sendOrderStatusEmail({ ...input('shipped'), email: '  ' })).toEqual({
      success: false,
      skipped: 'no-email',
      error: NO_RECIPIENT_ERROR,
    });
    expect(await outboxRows()).toEqual([]);
  });

  it('is queued in the status change transaction, once per event', async () => {
    await configureSmtpFor(smtp, 'starttls');
    await db().transaction(async (tx) => {
      await tx.update(orders).set({ status: 'shipped' }).where(sql`id = ${orderId}`);
      const first = await enqueueOrderStatusEmail(tx, input('shipped'));
      const again = await enqueueOrderStatusEmail(tx, input('shipped'));
      expect(first).toMatchObject({ success: true, duplicate: false });
      expect(again).toMatchObject({ success: true, duplicate: true });
    });
    // Another status change to the same status (another transaction) is another event.
    await sendOrderStatusEmail(input('shipped'));
    // A replay of a named event is not.
    await sendOrderStatusEmail(input('shipped', 'event-7'));
    await sendOrderStatusEmail(input('shipped', 'event-7'));
    expect(await outboxRows()).toHaveLength(3);
  });

  it('reports errors as { success: false, error }', async () => {
    await configureSmtpFor(smtp, 'starttls');
    expect(
      await sendOrderStatusEmail({ ...input('shipped'), orderId: '00000000-0000-4000-8000-000000000000' }),
    ).toEqual({
      success: false,
      error: ORDER_NOT_FOUND_ERROR,
    });
    expect(await sendOrderStatusEmail({ ...input('shipped'), orderId: 'not-a-uuid' })).toEqual({
      success: false,
      error: STATUS_EMAIL_DEFAULT_ERROR,
    });
    expect(await sendOrderStatusEmail({ ...input('shipped'), email: 'pas une adresse' })).toEqual({
      success: false,
      error: 'Adresse email invalide',
    });
  });

  it('is held, not lost, when notifications are on but SMTP is not configured', async () => {
    expect(await sendOrderStatusEmail(input('completed'))).toMatchObject({ success: true, status: 'held' });
    await configureSmtpFor(smtp, 'starttls');
    await drainOutbox(workerOptionsFor(smtp));
    expect(smtp.messages.map((m) => m.subject)).toEqual(['Commande SV-2026-000042 traitée']);
  });
});
