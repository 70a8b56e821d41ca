import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_CONFIG_MESSAGES } from '~/domain/email/email-config';
import { log } from '../log.server';
import { loadEmailConfig, saveEmailConfig } from './email-config.server';
import { INCOMPLETE_SMTP_DETAIL, sendTestEmail } from './test-email.server';
import { configureSmtpFor, outboxRows, resetEmailState, TEST_BASE_URL } from './testing/fixtures';
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
  await resetEmailState(smtp);
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

  it('sends the stored password only to the saved server: another host, port or user needs it typed again', async () => {
    await configureSmtpFor(smtp, 'starttls');
    const dialog = (changes: Record<string, string>) => ({
      to: 'admin@soovenirs.fr',
      config: {
        enabled: true,
        senderEmail: 'no-reply@soovenirs.fr',
        senderName: 'Soovenirs',
        smtpHost: '127.0.0.1',
        smtpPort: '587',
        smtpUsername: smtp.username,
        smtpPassword: '',
        ...changes,
      },
    });
    const others: Record<string, string>[] = [
      { smtpHost: 'localhost' },
      { smtpPort: '465' },
      { smtpUsername: 'autre@soovenirs.fr' },
    ];
    for (const changes of others) {
      const refused = await sendTestEmail(dialog(changes), options);
      expect(refused).toMatchObject({
        success: false,
        fieldErrors: { smtpPassword: [EMAIL_CONFIG_MESSAGES.passwordForNewServer] },
      });
    }
    expect(EMAIL_CONFIG_MESSAGES.passwordForNewServer).toContain('Saisissez à nouveau le mot de passe SMTP');
    // Nothing left the shop: no connection carried the stored password anywhere.
    expect(smtp.messages).toHaveLength(0);
    expect(await outboxRows()).toEqual([]);

    // Saving another server without the password is refused too, and the stored one is kept.
    const saved = await saveEmailConfig({ ...dialog({ smtpHost: 'smtp.ailleurs.example' }).config });
    expect(saved).toMatchObject({
      success: false,
      fieldErrors: { smtpPassword: [EMAIL_CONFIG_MESSAGES.passwordForNewServer] },
    });
    expect((await loadEmailConfig()).smtpHost).toBe('127.0.0.1');

    // Host names are not case-sensitive; with the password typed again, another host may be tried.
    expect(await sendTestEmail(dialog({ smtpHost: '127.0.0.1 ' }), options)).toMatchObject({ success: true });
    expect(
      await sendTestEmail(dialog({ smtpHost: 'localhost', smtpPassword: smtp.password }), options),
    ).not.toMatchObject({
      fieldErrors: expect.anything(),
    });
  });
});
