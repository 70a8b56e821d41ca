import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMAIL_CONFIG_DEFAULTS } from '~/domain/email/email-config';
import { asDatabaseOwner } from '../../../tests/support/databases';
import { readConfigOption, writeConfigOption } from '../config/config-options.server';
import { db, pool } from '../db/client.server';
import { log } from '../log.server';
import {
  getEmailConfig,
  getPublicEmailConfig,
  loadEmailConfig,
  SAVE_EMAIL_CONFIG_ERROR,
  saveEmailConfig,
  toPublicEmailConfig,
} from './email-config.server';
import { queueEmail } from './outbox.server';
import { sendTestEmail } from './test-email.server';
import { clearOutbox, outboxRows, TEST_BASE_URL } from './testing/fixtures';
import { startTestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox } from './worker.server';

process.env.BASE_URL = TEST_BASE_URL;
// Some tests break the stored configuration on purpose; the resulting error logs are expected.
log.level = 'silent';

const PASSWORD = 'Tr3s-s3cret!mot de passe';
const valid = {
  enabled: true,
  senderEmail: 'boutique@soovenirs.fr',
  senderName: 'Boutique Soovenirs',
  smtpHost: 'ssl0.ovh.net',
  smtpPort: 465,
  smtpUsername: 'boutique@soovenirs.fr',
  smtpPassword: PASSWORD,
};

const originalSecret = process.env.APP_SECRET;

beforeEach(async () => {
  await db().execute(sql`delete from config_options`);
  await clearOutbox();
});

afterEach(() => {
  process.env.APP_SECRET = originalSecret;
});

/** Every row of every table of the database, as text: what a dump would contain. */
async function dumpDatabase(): Promise<string> {
  const { rows } = await pool().query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
  );
  const parts: string[] = [];
  for (const { table_name } of rows) {
    const result = await pool().query(`select t::text as row from public.${JSON.stringify(table_name)} t`);
    parts.push(...result.rows.map((r: { row: string }) => `${table_name}: ${r.row}`));
  }
  return parts.join('\n');
}

describe('e-mail configuration', () => {
  it('reads the defaults when nothing is stored', async () => {
    expect(await getEmailConfig()).toEqual(EMAIL_CONFIG_DEFAULTS);
    expect(await getPublicEmailConfig()).toEqual({
      enabled: true,
      senderEmail: 'no-reply@soovenirs.fr',
      senderName: 'Soovenirs',
      smtpHost: 'ssl0.ovh.net',
      smtpPort: 587,
      smtpUsername: '',
      smtpPasswordSet: false,
    });
  });

  it('falls back to the defaults when the stored value cannot be read', async () => {
    await db().execute(
      sql`insert into config_options (option_name, option_value) values ('email_config', '{not json')`,
    );
    expect(await getEmailConfig()).toEqual(EMAIL_CONFIG_DEFAULTS);
  });

  it('refuses an invalid configuration with French messages, and stores nothing', async () => {
    const result = await saveEmailConfig({
      ...valid,
      senderEmail: 'pas-une-adresse',
      senderName: '',
      smtpHost: '',
      smtpPort: '',
      smtpUsername: '',
      smtpPassword: '',
    });
    expect(result).toEqual({
      success: false,
      error: 'Veuillez corriger les champs signalés',
      fieldErrors: {
        senderEmail: ['Adresse email invalide'],
        senderName: ["Le nom de l'expéditeur est requis"],
        smtpHost: ['Le serveur SMTP est requis'],
        smtpPort: ['Le port SMTP est requis'],
        smtpUsername: ["Le nom d'utilisateur SMTP est requis"],
        smtpPassword: ['Le mot de passe SMTP est requis'],
      },
    });
    expect(await readConfigOption('email_config')).toBeNull();
  });

  it('saves as JSON under email_config with the password encrypted, and reads it back', async () => {
    const result = await saveEmailConfig(valid);
    expect(result).toMatchObject({ success: true, releasedHeld: 0 });
    if (!result.success) return;
    expect(result.config).toEqual({ ...valid, smtpPassword: undefined, smtpPasswordSet: true });
    expect(JSON.stringify(result.config)).not.toContain(PASSWORD);

    const stored = (await readConfigOption('email_config')) as Record<string, unknown>;
    expect(stored).toMatchObject({ ...valid, smtpPassword: expect.stringMatching(/^v1\./) });
    expect(await getEmailConfig()).toEqual(valid);
  });

  it('keeps the stored password when the form sends an empty one, replaces it otherwise', async () => {
    await saveEmailConfig(valid);
    const kept = await saveEmailConfig({ ...valid, senderName: 'Soovenirs Paris', smtpPassword: '' });
    expect(kept).toMatchObject({ success: true, config: { senderName: 'Soovenirs Paris', smtpPasswordSet: true } });
    expect((await getEmailConfig()).smtpPassword).toBe(PASSWORD);

    await saveEmailConfig({ ...valid, smtpPassword: 'nouveau' });
    expect((await getEmailConfig()).smtpPassword).toBe('nouveau');
  });

  it('never gives the password to a browser', async () => {
    await saveEmailConfig(valid);
    const publicConfig = toPublicEmailConfig(await getEmailConfig());
    expect(publicConfig).not.toHaveProperty('smtpPassword');
    expect(publicConfig.smtpPasswordSet).toBe(true);
    expect(JSON.stringify(await getPublicEmailConfig())).not.toContain(PASSWORD);
  });

  it('treats a password it cannot decrypt (APP_SECRET changed) as missing', async () => {
    await saveEmailConfig(valid);
    process.env.APP_SECRET = 'a-completely-different-secret-of-enough-length';
    const loaded = await loadEmailConfig();
    expect(loaded).toMatchObject({ smtpPassword: '', passwordUnreadable: true });
    expect((await getPublicEmailConfig()).smtpPasswordSet).toBe(false);
  });

  it('releases held messages when a complete configuration is saved', async () => {
    await queueEmail({ to: 'a@exemple.fr', template: 'welcome', data: {}, dedupeKey: 'w:a' });
    // A message for a later day (a gift card chosen for Christmas) is released for that day, not now.
    const christmas = new Date(Date.now() + 30 * 86_400_000);
    await queueEmail({ to: 'b@exemple.fr', template: 'welcome', data: {}, dedupeKey: 'w:b', notBefore: christmas });
    expect((await outboxRows()).map((r) => r.status)).toEqual(['held', 'held']);
    const result = await saveEmailConfig(valid);
    expect(result).toMatchObject({ success: true, releasedHeld: 2 });
    expect((await outboxRows()).map((r) => r.status)).toEqual(['queued', 'queued']);
    const { rows } = await db().execute<{ to: string; next_at: string }>(sql`select "to", next_at from email_outbox`);
    expect(new Date(rows.find((row) => row.to === 'b@exemple.fr')?.next_at ?? 0).getTime()).toBe(christmas.getTime());
    const now = Date.now();
    expect(new Date(rows.find((row) => row.to === 'a@exemple.fr')?.next_at ?? now + 1).getTime()).toBeLessThanOrEqual(
      now,
    );
  });

  it('reports a failed save as false with a French error (and logs it)', async () => {
    // The database refuses the write (a constraint added for this test only).
    await asDatabaseOwner(
      `alter table config_options add constraint test_refuse_email_config check (option_name <> 'email_config') not valid`,
    );
    try {
      const result = await saveEmailConfig(valid);
      expect(result).toEqual({ success: false, error: SAVE_EMAIL_CONFIG_ERROR, fieldErrors: {} });
    } finally {
      await asDatabaseOwner('alter table config_options drop constraint test_refuse_email_config');
    }
  });

  it('leaves no trace of the SMTP password in clear anywhere in the database', async () => {
    const smtp = await startTestSmtpServer({ mode: 'tls', password: PASSWORD });
    try {
      await saveEmailConfig({ ...valid, smtpHost: '127.0.0.1', smtpUsername: smtp.username });
      const options = { smtp: { port: smtp.port, tls: { ca: smtp.cert } } };
      await queueEmail({ to: 'a@exemple.fr', template: 'welcome', data: { firstName: 'Ada' }, dedupeKey: 'dump:1' });
      expect(await drainOutbox(options)).toMatchObject({ sent: 1 });
      expect(await sendTestEmail({ to: 'admin@soovenirs.fr' }, options)).toMatchObject({ success: true });
      expect(smtp.messages).toHaveLength(2);

      const dump = await dumpDatabase();
      expect(dump).toContain('email_config');
      expect(dump).toMatch(/^email_outbox: .*welcome/m);
      expect(dump).not.toContain(PASSWORD);
      expect(dump).not.toContain(Buffer.from(PASSWORD).toString('base64'));
      expect(dump).not.toContain(encodeURIComponent(PASSWORD));
    } finally {
      await smtp.stop();
    }
  });

  it('writes config options as an upsert on option_name', async () => {
    await writeConfigOption('email_config', { a: 1 });
    await writeConfigOption('email_config', { a: 2 });
    expect(await readConfigOption('email_config')).toEqual({ a: 2 });
    const { rows } = await pool().query(
      "select count(*)::int as n from config_options where option_name = 'email_config'",
    );
    expect(rows[0].n).toBe(1);
  });
});
