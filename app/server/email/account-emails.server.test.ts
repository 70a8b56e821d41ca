import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { queueAccountEmail } from './account-emails.server';
import { configureSmtpFor, outboxRows, TEST_BASE_URL, workerOptionsFor } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox } from './worker.server';

process.env.BASE_URL = TEST_BASE_URL;

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
});

afterAll(async () => {
  await smtp.stop();
});

describe('account e-mails (Better Auth)', () => {
  it('queues a password reset once per link, encrypted, sends it, then wipes the link from the database', async () => {
    await configureSmtpFor(smtp, 'starttls');
    const url = `${TEST_BASE_URL}/api/auth/reset-password/abc123?callbackURL=%2Flogin`;
    const first = await queueAccountEmail({ to: 'ada@exemple.fr', kind: 'password-reset', url, firstName: 'Ada' });
    const again = await queueAccountEmail({ to: 'ada@exemple.fr', kind: 'password-reset', url, firstName: 'Ada' });
    expect(again).toMatchObject({ id: first.id, created: false });
    const magic = await queueAccountEmail({
      to: 'ada@exemple.fr',
      kind: 'magic-link',
      url: `${TEST_BASE_URL}/m?token=zz9`,
    });
    expect(magic.created).toBe(true);
    // Queued, the links (their tokens sign the bearer in) are encrypted.
    const queued = await db().execute(sql`select email_outbox::text as row from email_outbox`);
    expect(JSON.stringify(queued.rows)).not.toMatch(/abc123|zz9/);

    expect(await drainOutbox(workerOptionsFor(smtp))).toMatchObject({ sent: 2 });
    const reset = smtp.messages.find((m) => m.subject === 'Réinitialisation de votre mot de passe Soovenirs');
    expect(reset?.text).toContain('Bonjour Ada,');
    expect(reset?.text).toContain(url);
    expect(smtp.messages.find((m) => m.subject === 'Votre lien de connexion à Soovenirs')?.text).toContain('token=zz9');

    const rows = await outboxRows();
    expect(rows.map((r) => r.data)).toEqual([{ redacted: true }, { redacted: true }]);
    const dump = await db().execute(sql`select email_outbox::text as row from email_outbox`);
    expect(JSON.stringify(dump.rows)).not.toMatch(/abc123|zz9/);
  });

  it('confirms a new account’s address in its welcome e-mail, then alone when asked again', async () => {
    await configureSmtpFor(smtp, 'starttls');
    const to = 'marie@exemple.fr';
    const userId = 'user-welcome-1';
    const first = `${TEST_BASE_URL}/api/auth/verify-email?token=first1`;
    const again = `${TEST_BASE_URL}/api/auth/verify-email?token=again2`;
    const welcome = await queueAccountEmail({ to, kind: 'email-verification', url: first, firstName: 'Marie', userId });
    const resent = await queueAccountEmail({ to, kind: 'email-verification', url: again, firstName: 'Marie', userId });
    expect([welcome.created, resent.created]).toEqual([true, true]);
    const before = smtp.messages.length;
    await drainOutbox(workerOptionsFor(smtp));
    const sent = smtp.messages.slice(before).filter((m) => m.envelopeTo.includes(to));
    expect(sent.map((m) => m.subject.replace(/\u202F/g, ' '))).toEqual([
      'Bienvenue chez Soovenirs : confirmez votre adresse e-mail',
      'Confirmez votre adresse e-mail Soovenirs',
    ]);
    expect(sent[0]?.text).toContain('Votre compte Soovenirs est créé.');
    expect(sent[0]?.text).toContain('token=first1');
    expect(sent[1]?.text).toContain('token=again2');
    // The links sign nobody in, but prove the mailbox: wiped once sent, like the others.
    const dump = await db().execute(sql`select email_outbox::text as row from email_outbox`);
    expect(JSON.stringify(dump.rows)).not.toMatch(/first1|again2/);
  });
});
