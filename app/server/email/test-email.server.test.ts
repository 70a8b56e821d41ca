import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { INCOMPLETE_SMTP_DETAIL, sendTestEmail } from './test-email.server';
import { clearOutbox, configureSmtpFor, outboxRows, TEST_BASE_URL } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';

process.env.BASE_URL = TEST_BASE_URL;
log.level = 'silent';

let smtp: TestSmtpServer;
let options: { smtp: { port: number; tls: { ca: string }; timeoutMs: number } };

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
  options = { smtp: { port: smtp.port, tls: { ca: smtp.cert }, timeoutMs: 3_000 } };
});

afterAll(async () => {
  await smtp.stop();
});

beforeEach(async () => {
  await clearOutbox();
  await db().execute(sql`delete from config_options`);
  smtp.messages.length = 0;
});

describe('test e-mail of the configuration dialog', () => {
  it.each([
    ['', 'Veuillez saisir une adresse email'],
    [undefined, 'Veuillez saisir une adresse email'],
    ['pas-une-adresse', 'Adresse email invalide'],
  ])('recipient %j -> %s', async (to, error) => {
    expect(await sendTestEmail({ to }, options)).toMatchObject({ success: false, error });
  });

  it('sends at once with the stored configuration and records it', async () => {
    await configureSmtpFor(smtp, 'starttls');
    const result = await sendTestEmail({ to: 'admin@soovenirs.fr' }, options);
    expect(result).toMatchObject({ success: true });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]?.subject).toBe('Email de test Soovenirs');
    expect(smtp.messages[0]?.text).toContain('Bonne nouvelle');
    expect(smtp.messages[0]?.text).toContain('127.0.0.1, port 587 (TLS)');
    expect(await outboxRows()).toMatchObject([{ template: 'test-email', status: 'sent', to: 'admin@soovenirs.fr' }]);
  });

  it("answers 'Échec de l'envoi' with the server's reason when sending fails", async () => {
    await configureSmtpFor(smtp, 'starttls', { smtpPassword: 'mauvais' });
    const result = await sendTestEmail({ to: 'admin@soovenirs.fr' }, options);
    expect(result).toMatchObject({ success: false, error: "Échec de l'envoi" });
    if (result.success) return;
    expect(result.detail).toContain('535');
    expect(await outboxRows()).toMatchObject([{ template: 'test-email', status: 'failed' }]);
  });

  it("answers 'Échec de l'envoi' when SMTP is not configured", async () => {
    expect(await sendTestEmail({ to: 'admin@soovenirs.fr' }, options)).toEqual({
      success: false,
      error: "Échec de l'envoi",
      detail: INCOMPLETE_SMTP_DETAIL,
    });
  });

  it('can try the fields of the dialog before they are saved (empty password = the stored one)', async () => {
    await configureSmtpFor(smtp, 'starttls', { senderName: 'Ancien nom' });
    const result = await sendTestEmail(
      {
        to: 'admin@soovenirs.fr',
        config: {
          enabled: true,
          senderEmail: 'contact@soovenirs.fr',
          senderName: 'Nouveau nom',
          smtpHost: '127.0.0.1',
          smtpPort: '587',
          smtpUsername: smtp.username,
          smtpPassword: '',
        },
      },
      options,
    );
    expect(result).toMatchObject({ success: true });
    expect(smtp.messages[0]?.headers.get('from')).toBe('Nouveau nom <contact@soovenirs.fr>');
  });
});
