import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, pool } from '../db/client.server';
import { orders } from '../db/schema';
import { log } from '../log.server';
import { enqueueEmail, queueEmail, sealClearOutboxLinks } from './outbox.server';
import {
  configureSmtpFor,
  outboxRows,
  resetEmailState,
  TEST_BASE_URL,
  waitFor,
  workerOptionsFor,
} from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox, startEmailWorker, stopEmailWorker } from './worker.server';

process.env.BASE_URL = TEST_BASE_URL;
// These tests make SMTP fail on purpose: the worker's warnings would only clutter the output.
log.level = 'silent';

const NNBSP = '\u202F';
let starttls: TestSmtpServer;
let implicitTls: TestSmtpServer;

beforeAll(async () => {
  starttls = await startTestSmtpServer({
    mode: 'starttls',
    refuseRecipient: (address) =>
      address.startsWith('inconnu@') ? '5.1.1 <inconnu@exemple.fr>: Recipient address rejected' : null,
  });
  implicitTls = await startTestSmtpServer({ mode: 'tls' });
});

afterAll(async () => {
  await stopEmailWorker();
  await starttls.stop();
  await implicitTls.stop();
});

beforeEach(async () => {
  await resetEmailState(starttls, implicitTls);
});

afterEach(async () => {
  await stopEmailWorker();
  delete process.env.SMTP_TLS_REJECT_UNAUTHORIZED;
});

function statusEmail(dedupeKey: string, to = 'marie.curie@exemple.fr') {
  return {
    to,
    template: 'order-status' as const,
    data: { orderNumber: 'SV-2026-000042', status: 'shipped', customerName: 'Marie Curie' },
    dedupeKey,
  };
}

describe('the outbox worker over real SMTP', () => {
  it('delivers with STARTTLS (port 587): headers, subject and French body, provider id recorded', async () => {
    await configureSmtpFor(starttls, 'starttls');
    const queued = await queueEmail(statusEmail('status:1'));
    const result = await drainOutbox(workerOptionsFor(starttls));
    expect(result).toEqual({ sent: 1, retry: 0, failed: 0, held: 0 });

    const [message] = starttls.messages;
    expect(message).toBeDefined();
    if (!message) return;
    expect(message.secure).toBe(true); // upgraded with STARTTLS before anything was sent
    expect(message.user).toBe(starttls.username);
    expect(message.envelopeFrom).toBe('no-reply@soovenirs.fr');
    expect(message.envelopeTo).toEqual(['marie.curie@exemple.fr']);
    expect(message.headers.get('from')).toBe('Soovenirs <no-reply@soovenirs.fr>');
    expect(message.headers.get('to')).toBe('marie.curie@exemple.fr');
    expect(message.headers.get('content-language')).toBe('fr');
    expect(message.headers.get('message-id')).toBe(`<${queued.id}@soovenirs.fr>`);
    expect(message.subject).toBe('Commande SV-2026-000042 expédiée');
    expect(message.text).toContain('Votre commande a été expédiée et est en route.');
    expect(message.text).toContain('Bonjour Marie Curie,');
    expect(message.text).toContain(`Une question${NNBSP}?`);
    expect(message.html).toMatch(/<html[^>]* lang="fr"/);
    expect(message.html).toContain('Votre commande a été expédiée et est en route.');
    expect(message.text).toContain('Soovenirs SAS');

    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(row?.provider_message_id).toBe(`<${queued.id}@soovenirs.fr>`);
    expect(row?.sent_at).toEqual(expect.any(String));
  });

  it('delivers with implicit TLS (port 465)', async () => {
    await configureSmtpFor(implicitTls, 'tls');
    await queueEmail(statusEmail('status:465'));
    expect(await drainOutbox(workerOptionsFor(implicitTls))).toMatchObject({ sent: 1 });
    expect(implicitTls.messages).toHaveLength(1);
    expect(implicitTls.messages[0]?.secure).toBe(true);
  });

  it('verifies the certificate unless told otherwise (SMTP_TLS_REJECT_UNAUTHORIZED=false)', async () => {
    await configureSmtpFor(implicitTls, 'tls');
    await queueEmail(statusEmail('status:untrusted'));
    // Not trusting the self-signed certificate: refused, retried later.
    const untrusted = { smtp: { port: implicitTls.port, timeoutMs: 3_000 }, backoffMs: 20 };
    expect(await drainOutbox(untrusted)).toMatchObject({ sent: 0, retry: 1 });
    expect((await outboxRows())[0]?.last_error).toMatch(/self[- ]signed|certificate/i);
    expect(implicitTls.messages).toHaveLength(0);

    process.env.SMTP_TLS_REJECT_UNAUTHORIZED = 'false';
    await waitFor(async () => (await drainOutbox(untrusted)).sent === 1);
    expect(implicitTls.messages).toHaveLength(1);
  });

  it('sends one message when the same event is queued twice', async () => {
    await configureSmtpFor(starttls, 'starttls');
    const first = await queueEmail(statusEmail('order-status:abc:shipped:42'));
    const second = await db().transaction((tx) => enqueueEmail(tx, statusEmail('order-status:abc:shipped:42')));
    expect(first.created).toBe(true);
    expect(second).toEqual({ id: first.id, created: false, status: 'queued' });
    await drainOutbox(workerOptionsFor(starttls));
    expect(starttls.messages).toHaveLength(1);
    expect(await outboxRows()).toHaveLength(1);
  });

  it('delivers every message exactly once after the SMTP server was down for a while', async () => {
    await configureSmtpFor(starttls, 'starttls');
    await starttls.stop();
    const count = 6;
    for (let i = 0; i < count; i++) await queueEmail(statusEmail(`outage:${i}`, `client${i}@exemple.fr`));

    startEmailWorker(workerOptionsFor(starttls, { pollMs: 50, backoffMs: 30 }));
    // Failures pile up while the server is down; none is given up yet.
    await waitFor(async () => (await outboxRows()).filter((r) => r.attempts >= 2).length >= 2);
    const during = await outboxRows();
    expect(during.every((r) => r.status === 'queued')).toBe(true);
    expect(during.some((r) => /ECONNREFUSED|connect/i.test(r.last_error ?? ''))).toBe(true);

    await starttls.start();
    await waitFor(async () => (await outboxRows()).every((r) => r.status === 'sent'), 20_000);
    await stopEmailWorker();

    const recipients = starttls.messages.map((m) => m.envelopeTo[0]).sort();
    expect(recipients).toEqual(Array.from({ length: count }, (_, i) => `client${i}@exemple.fr`).sort());
    expect(new Set(starttls.messages.map((m) => m.headers.get('message-id'))).size).toBe(count);
  });

  it('two workers draining at once send each message once (FOR UPDATE SKIP LOCKED)', async () => {
    await configureSmtpFor(starttls, 'starttls');
    const count = 12;
    for (let i = 0; i < count; i++) await queueEmail(statusEmail(`concurrent:${i}`, `c${i}@exemple.fr`));
    const [a, b] = await Promise.all([
      drainOutbox(workerOptionsFor(starttls)),
      drainOutbox(workerOptionsFor(starttls)),
    ]);
    expect((a?.sent ?? 0) + (b?.sent ?? 0)).toBe(count);
    expect(starttls.messages).toHaveLength(count);
    expect(new Set(starttls.messages.map((m) => m.envelopeTo[0])).size).toBe(count);
  });

  it('marks a message to a refused address failed at once, with the reason, and goes on', async () => {
    await configureSmtpFor(starttls, 'starttls');
    await queueEmail(statusEmail('refused', 'inconnu@exemple.fr'));
    await queueEmail(statusEmail('accepted', 'connu@exemple.fr'));
    expect(await drainOutbox(workerOptionsFor(starttls))).toMatchObject({ sent: 1, failed: 1, retry: 0 });
    const refused = (await outboxRows()).find((r) => r.to === 'inconnu@exemple.fr');
    expect(refused).toMatchObject({ status: 'failed', attempts: 1 });
    expect(refused?.last_error).toContain('550');
    expect(refused?.last_error).toContain('Recipient address rejected');
    expect(starttls.messages.map((m) => m.envelopeTo[0])).toEqual(['connu@exemple.fr']);
  });

  it('gives up after the last attempt, with the last error', async () => {
    await configureSmtpFor(starttls, 'starttls');
    await starttls.stop();
    try {
      await queueEmail(statusEmail('never'));
      const options = workerOptionsFor(starttls, { maxAttempts: 3, backoffMs: 10 });
      await waitFor(async () => {
        await drainOutbox(options);
        return (await outboxRows())[0]?.status === 'failed';
      });
      const [row] = await outboxRows();
      expect(row).toMatchObject({ status: 'failed', attempts: 3 });
      expect(row?.last_error).toMatch(/ECONNREFUSED|connect/i);
    } finally {
      await starttls.start();
    }
  });

  it('holds messages while SMTP is not configured and sends them once the configuration is saved', async () => {
    const queued = await queueEmail(statusEmail('held:1'));
    expect(queued.status).toBe('held');
    expect(await drainOutbox(workerOptionsFor(starttls))).toEqual({ sent: 0, retry: 0, failed: 0, held: 0 });
    expect((await outboxRows())[0]?.status).toBe('held');

    startEmailWorker(workerOptionsFor(starttls, { pollMs: 60_000 }));
    const saved = await configureSmtpFor(starttls, 'starttls');
    expect(saved).toMatchObject({ success: true, releasedHeld: 1 });
    // The worker sleeps for a minute: the commit's notification is what wakes it.
    await starttls.waitForMessages(1);
    await waitFor(async () => (await outboxRows())[0]?.status === 'sent');
  });

  it('holds messages when the credentials are refused, until the configuration is corrected', async () => {
    await configureSmtpFor(starttls, 'starttls', { smtpPassword: 'wrong-password' });
    await queueEmail(statusEmail('auth:1'));
    await queueEmail(statusEmail('auth:2'));
    expect(await drainOutbox(workerOptionsFor(starttls))).toMatchObject({ held: 1, sent: 0 });
    const [held] = (await outboxRows()).filter((r) => r.status === 'held');
    expect(held?.last_error).toContain('Identifiants SMTP refusés');
    expect(held?.last_error).toContain('535');

    await configureSmtpFor(starttls, 'starttls');
    expect(await drainOutbox(workerOptionsFor(starttls))).toMatchObject({ sent: 2 });
    expect((await outboxRows()).map((r) => r.attempts)).toEqual([1, 1]);
  });

  it('wakes up when a transaction that queued an e-mail commits', async () => {
    await configureSmtpFor(starttls, 'starttls');
    startEmailWorker(workerOptionsFor(starttls, { pollMs: 60_000 }));
    await new Promise((r) => setTimeout(r, 200)); // the worker is asleep, listening
    await db().transaction(async (tx) => {
      await enqueueEmail(tx, statusEmail('wake:1'));
    });
    await starttls.waitForMessages(1, 5_000);
  });

  it('sleeps while the outbox is empty: no query between two polls', async () => {
    await configureSmtpFor(starttls, 'starttls');
    let queries = 0;
    const count = () => {
      queries++;
    };
    startEmailWorker(workerOptionsFor(starttls, { pollMs: 60_000 }));
    // Its first pass (nothing to send) takes a few queries; then it sleeps until the next poll.
    await new Promise((r) => setTimeout(r, 500));
    pool().on('acquire', count);
    try {
      await new Promise((r) => setTimeout(r, 1_000));
    } finally {
      pool().off('acquire', count);
    }
    // An empty outbox once read as « a message due now »: a pass every 10 ms, about 200 queries here.
    expect(queries).toBe(0);
  });

  it('wipes sign-in links once sent and records e-mails of an order in its timeline', async () => {
    await configureSmtpFor(starttls, 'starttls');
    const [order] = await db().insert(orders).values({ number: 'SV-2026-000777' }).returning({ id: orders.id });
    await queueEmail({
      to: 'marie.curie@exemple.fr',
      template: 'magic-link',
      data: { url: `${TEST_BASE_URL}/api/auth/magic-link/verify?token=secret-token` },
      dedupeKey: 'magic:1',
    });
    await queueEmail({ ...statusEmail('timeline:1'), orderId: order?.id });
    await drainOutbox(workerOptionsFor(starttls));

    expect(starttls.messages[0]?.text).toContain('token=secret-token');
    const rows = await outboxRows();
    expect(rows.find((r) => r.template === 'magic-link')?.data).toEqual({ redacted: true });
    expect(JSON.stringify(rows)).not.toContain('secret-token');
    const events = await db().execute(sql`select kind, actor, data from order_events where order_id = ${order?.id}`);
    expect(events.rows).toEqual([
      {
        kind: 'email_sent',
        actor: 'system',
        data: expect.objectContaining({ template: 'order-status', to: 'marie.curie@exemple.fr' }),
      },
    ]);
  });

  it('marks a row whose data no longer fits its template failed without sending', async () => {
    await configureSmtpFor(starttls, 'starttls');
    await db().execute(sql`
      insert into email_outbox ("to", template, data, status) values ('x@exemple.fr', 'order-status', '{}'::jsonb, 'queued')`);
    expect(await drainOutbox(workerOptionsFor(starttls))).toMatchObject({ failed: 1 });
    expect((await outboxRows())[0]?.last_error).toContain('orderNumber');
    expect(starttls.messages).toHaveLength(0);
  });

  it('keeps guest links encrypted in the outbox and decrypts them only to send', async () => {
    await configureSmtpFor(starttls, 'starttls');
    const token = 'Jeton-prive-du-devis-0123456789abcdefghijklmnop';
    const quoteUrl = `${TEST_BASE_URL}/devis/${token}`;
    await queueEmail({
      to: 'invite@exemple.fr',
      template: 'quote-saved',
      data: { quoteUrl, createdAt: '2026-03-01T10:00:00.000Z', totalCents: 5175 },
      dedupeKey: 'quote-saved:sealed',
    });
    // A row written before links were sealed: encrypted in place when a worker starts.
    await db().execute(sql`
      insert into email_outbox ("to", template, data, status) values ('ancien@exemple.fr', 'order-confirmation',
        ${JSON.stringify({ orderNumber: 'SV-2026-000007', createdAt: '2026-03-01T10:00:00.000Z', totalCents: 5175, items: [], orderUrl: `${TEST_BASE_URL}/confirmation?orderId=x&token=${token}` })}::jsonb,
        'held')`);
    expect(await sealClearOutboxLinks()).toBe(1);
    expect(await sealClearOutboxLinks()).toBe(0);
    const stored = JSON.stringify(await outboxRows());
    expect(stored).not.toContain(token);
    expect(stored).toContain('SV-2026-000007'); // the rest stays readable for the back office

    expect(await drainOutbox(workerOptionsFor(starttls))).toMatchObject({ sent: 1 });
    expect(starttls.messages[0]?.text).toContain(quoteUrl);
    expect(JSON.stringify(await outboxRows())).not.toContain(token);
  });
});
