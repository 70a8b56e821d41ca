import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { saveEmailConfig } from './email-config.server';
import { enqueueEmail, InvalidRecipientError, queueEmail, retryFailedEmail } from './outbox.server';
import { InvalidEmailDataError } from './templates/registry';
import { clearOutbox, outboxRows, TEST_BASE_URL } from './testing/fixtures';

process.env.BASE_URL = TEST_BASE_URL;

const configured = {
  enabled: true,
  senderEmail: 'no-reply@soovenirs.fr',
  senderName: 'Soovenirs',
  smtpHost: 'ssl0.ovh.net',
  smtpPort: 587,
  smtpUsername: 'no-reply@soovenirs.fr',
  smtpPassword: 'secret',
};

const welcome = (dedupeKey: string, to = 'ada@exemple.fr') => ({
  to,
  template: 'welcome' as const,
  data: { firstName: 'Ada' },
  dedupeKey,
});

beforeEach(async () => {
  await clearOutbox();
  await db().execute(sql`delete from config_options`);
});

describe('enqueueEmail', () => {
  it('writes the row in the caller transaction: nothing is queued when it rolls back', async () => {
    await saveEmailConfig(configured);
    await expect(
      db().transaction(async (tx) => {
        await enqueueEmail(tx, welcome('rollback'));
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    expect(await outboxRows()).toEqual([]);

    await db().transaction((tx) => enqueueEmail(tx, welcome('commit')));
    expect(await outboxRows()).toMatchObject([
      { to: 'ada@exemple.fr', template: 'welcome', status: 'queued', attempts: 0, dedupe_key: 'commit' },
    ]);
  });

  it('stores the data completed with the template defaults', async () => {
    await queueEmail(welcome('defaults'));
    expect((await outboxRows())[0]?.data).toEqual({ firstName: 'Ada', accountUrl: '/profile', expiresInHours: 24 });
  });

  it('is a no-op for a dedupe key already queued, even from concurrent transactions', async () => {
    await saveEmailConfig(configured);
    const results = await Promise.all(Array.from({ length: 5 }, () => queueEmail(welcome('same-event'))));
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await outboxRows()).toHaveLength(1);
  });

  it('holds the message while SMTP is not configured', async () => {
    expect(await queueEmail(welcome('held'))).toMatchObject({ created: true, status: 'held' });
    await saveEmailConfig(configured);
    expect(await queueEmail(welcome('queued'))).toMatchObject({ created: true, status: 'queued' });
  });

  it('refuses data that does not fit the template, an unknown template and a bad address', async () => {
    await expect(
      queueEmail({
        to: 'a@exemple.fr',
        template: 'order-status',
        data: { status: 'shipped' } as never,
        dedupeKey: 'x',
      }),
    ).rejects.toThrow(InvalidEmailDataError);
    await expect(
      queueEmail({ to: 'a@exemple.fr', template: 'nope' as never, data: {} as never, dedupeKey: 'y' }),
    ).rejects.toThrow(InvalidEmailDataError);
    await expect(queueEmail(welcome('z', 'not an address'))).rejects.toThrow(InvalidRecipientError);
    await expect(
      queueEmail({
        to: 'a@exemple.fr',
        template: 'password-reset',
        data: { url: 'javascript:alert(1)' },
        dedupeKey: 'j',
      }),
    ).rejects.toThrow(InvalidEmailDataError);
    expect(await outboxRows()).toEqual([]);
  });

  it('lets a failed message be retried with a fresh set of attempts', async () => {
    const { id } = await queueEmail(welcome('retry'));
    await db().execute(
      sql`update email_outbox set status = 'failed', attempts = 8, last_error = 'boom' where id = ${id}`,
    );
    expect(await retryFailedEmail(id)).toBe(true);
    expect((await outboxRows())[0]).toMatchObject({ status: 'queued', attempts: 0, last_error: null });
    expect(await retryFailedEmail(id)).toBe(false);
  });
});
