import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { checkMailHoldAtStart, readMailHold, releaseMail } from './mail-hold.server';
import { queueEmail } from './outbox.server';
import { configureSmtpFor, outboxRows, resetEmailState, TEST_BASE_URL, workerOptionsFor } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox } from './worker.server';

/*
 * Outgoing e-mail held on a copied database (decision 041): the first start records where the
 * database runs, a start elsewhere holds the mail, nothing reaches the SMTP peer while held, and
 * the release either sends everything or sets aside what came with the copy. The restore's own
 * mark is tested end to end in tests/resilience/restored-mail-hold.test.ts.
 */

process.env.BASE_URL = TEST_BASE_URL;
log.level = 'silent';
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
});
afterAll(async () => {
  await smtp.stop();
});
beforeEach(async () => {
  await resetEmailState(smtp);
});

function statusEmail(key: string, to: string) {
  return {
    to,
    template: 'order-status' as const,
    data: { orderNumber: 'SV-2026-000042', status: 'shipped', customerName: 'Marie Curie' },
    dedupeKey: key,
  };
}

describe('outgoing e-mail on a copied database', () => {
  it('holds after a start elsewhere, sends nothing, and the release sets aside what came with the copy', async () => {
    await configureSmtpFor(smtp, 'starttls');
    // The first start records where the database runs; a restart in place holds nothing.
    expect(await checkMailHoldAtStart({ dataDir: null })).toBeNull();
    expect(await checkMailHoldAtStart({ dataDir: null })).toBeNull();

    await queueEmail(statusEmail('hold:copied', 'copie@exemple.fr'));
    // The same database started from another DATA_DIR (a copy of the folder).
    const hold = await checkMailHoldAtStart({ dataDir: '/srv/ailleurs/data' });
    expect(hold).toMatchObject({ reason: 'copy', source: 'DATA_DIR (external) → /srv/ailleurs/data' });
    await queueEmail(statusEmail('hold:new', 'nouveau@exemple.fr'));
    expect(await drainOutbox(workerOptionsFor(smtp))).toEqual({ sent: 0, retry: 0, failed: 0, held: 0 });
    expect(smtp.messages).toEqual([]);
    expect((await outboxRows()).map((r) => r.status)).toEqual(['queued', 'queued']);
    // Restarting there keeps the hold: only an operator lifts it.
    expect(await checkMailHoldAtStart({ dataDir: '/srv/ailleurs/data' })).toEqual(hold);

    expect(await releaseMail('discard-copied')).toEqual({ released: true, discarded: 1, queued: 1 });
    expect(await readMailHold()).toBeNull();
    // In the Journal, with the e-mail settings.
    const journal = await db().execute<{ after: unknown }>(
      sql`select "after" from audit_log where kind = 'settings.email' and subject = 'mail_hold' order by id desc limit 1`,
    );
    expect(journal.rows[0]?.after).toEqual({ mailHeld: false, setAside: 1, released: 1 });
    expect(await drainOutbox(workerOptionsFor(smtp))).toMatchObject({ sent: 1 });
    expect(smtp.messages.map((m) => m.envelopeTo)).toEqual([['nouveau@exemple.fr']]);
    const copied = (await outboxRows()).find((r) => r.to === 'copie@exemple.fr');
    expect(copied).toMatchObject({ status: 'failed', last_error: expect.stringContaining('Écarté à la levée') });
    expect(await releaseMail('send')).toEqual({ released: false, discarded: 0, queued: 0 });
    // The new place is now the recorded one: the next start there holds nothing.
    expect(await checkMailHoldAtStart({ dataDir: '/srv/ailleurs/data' })).toBeNull();
  });

  it('holds on an unreadable setting, and « send » lets every waiting message go', async () => {
    await configureSmtpFor(smtp, 'starttls');
    await db().execute(sql`insert into config_options (option_name, option_value) values ('mail_hold', 'pas du JSON')`);
    await queueEmail(statusEmail('hold:a', 'a@exemple.fr'));
    expect(await drainOutbox(workerOptionsFor(smtp))).toMatchObject({ sent: 0 });
    expect(await releaseMail('send')).toMatchObject({ released: true, discarded: 0, queued: 1 });
    expect(await drainOutbox(workerOptionsFor(smtp))).toMatchObject({ sent: 1 });
  });
});
