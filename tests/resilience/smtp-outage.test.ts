import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestSmtpServer } from '~/server/email/testing/smtp-test-server';
import type { TestServer } from '../support/server';
import { type ServerWithSmtp, startServerWithSmtp } from '../support/server-with-smtp';

/*
 * The shop's SMTP server down for 20 seconds, then back, while visitors use the contact form (each
 * message makes two e-mails: one to the shop, an acknowledgement to the visitor). The outbox must
 * keep every e-mail through the outage and deliver each exactly once when the peer is back, with
 * the worker's real retry schedule (first retry 30 s after a failure): nothing is shortened here.
 */

const OUTAGE_MS = 20_000;

describe('the SMTP peer down for 20 s, then back', () => {
  let server: TestServer;
  let smtp: TestSmtpServer;
  let db: pg.Client;

  let shop: ServerWithSmtp;

  beforeAll(async () => {
    // One address sends every message of this test.
    shop = await startServerWithSmtp({ CONTACT_RATE_LIMIT: '1000' });
    ({ server, smtp, db } = shop);
  });

  afterAll(async () => {
    await shop?.dispose();
  });

  /** A visitor sends the contact form (a plain form post, as without JavaScript). */
  async function sendContactMessage(label: string): Promise<void> {
    const response = await fetch(`${server.url}/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
      body: new URLSearchParams({
        name: `Visiteur ${label}`,
        email: `visiteur-${label}@example.fr`,
        subject: `Numérisation ${label}`,
        message: 'Bonjour, combien pour 300 diapositives ?',
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Message envoyé avec succès');
  }

  async function outbox() {
    const { rows } = await db.query<{
      id: string;
      status: string;
      attempts: number;
      last_error: string | null;
      provider_message_id: string | null;
    }>('select id, status, attempts, last_error, provider_message_id from email_outbox order by created_at, id');
    return rows;
  }

  async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await outbox())}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('keeps every e-mail during the outage and delivers each exactly once afterwards', async () => {
    const started = Date.now();
    // The path works before the outage.
    await sendContactMessage('avant');
    await smtp.waitForMessages(2, 15_000);

    await smtp.stop();
    const outageStart = Date.now();
    for (const label of ['panne-1', 'panne-2', 'panne-3']) await sendContactMessage(label);
    // The worker really tried, and failed, while the peer was away.
    await waitFor(
      async () => (await outbox()).filter((r) => r.status === 'queued' && r.attempts >= 1 && r.last_error).length === 6,
      15_000,
      'the first failed attempts',
    );
    // More visitors in the middle of the outage.
    await new Promise((r) => setTimeout(r, Math.max(0, outageStart + OUTAGE_MS / 2 - Date.now())));
    for (const label of ['panne-4', 'panne-5']) await sendContactMessage(label);
    await new Promise((r) => setTimeout(r, Math.max(0, outageStart + OUTAGE_MS - Date.now())));
    expect(smtp.messages).toHaveLength(2);
    const queuedDuringOutage = (await outbox()).filter((r) => r.status === 'queued');
    expect(queuedDuringOutage).toHaveLength(10);

    await smtp.start();
    const outageEnd = Date.now();
    // The first retry comes 30 s after a failure, the last failures were about 10 s before the end.
    await waitFor(async () => (await outbox()).every((r) => r.status === 'sent'), 60_000, 'every e-mail sent');
    const deliveredAfter = Date.now() - outageEnd;
    // A moment more, for any duplicate to show up.
    await new Promise((r) => setTimeout(r, 3_000));

    const rows = await outbox();
    expect(rows).toHaveLength(12);
    expect(smtp.messages).toHaveLength(12);
    // Each outbox row's Message-ID (made from the row id) arrived exactly once.
    const messageIds = smtp.messages.map((m) => m.headers.get('message-id') ?? '');
    expect(new Set(messageIds).size).toBe(12);
    for (const row of rows) {
      expect(
        messageIds.filter((id) => id.startsWith(`<${row.id}@`)),
        `row ${row.id}`,
      ).toHaveLength(1);
      expect(row.provider_message_id).toBeTruthy();
    }
    // The ones queued in the outage took a failed attempt and a successful one.
    for (const row of queuedDuringOutage) {
      expect(rows.find((r) => r.id === row.id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    }
    // Both recipients of every message: the shop and the visitor.
    for (const label of ['avant', 'panne-1', 'panne-2', 'panne-3', 'panne-4', 'panne-5']) {
      expect(smtp.messages.filter((m) => m.envelopeTo.includes(`visiteur-${label}@example.fr`))).toHaveLength(1);
    }
    console.info(
      `SMTP outage: 10 e-mails queued during ${OUTAGE_MS} ms down, all delivered ${deliveredAfter} ms after the peer ` +
        `came back, ${Date.now() - started} ms in all`,
    );
  });
});
