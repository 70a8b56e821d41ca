import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import {
  createEmailConfigSchema,
  createTestEmailFormSchema,
  EMAIL_CONFIG_DEFAULTS,
  EMAIL_CONFIG_MESSAGES,
  emailConfigSchema,
  isSmtpConfigured,
  smtpSecurity,
  testEmailSchema,
} from './email-config';

const valid = {
  enabled: true,
  senderEmail: 'no-reply@soovenirs.fr',
  senderName: 'Soovenirs',
  smtpHost: 'ssl0.ovh.net',
  smtpPort: 587,
  smtpUsername: 'no-reply@soovenirs.fr',
  smtpPassword: 'S3cret-p@ss',
};

function firstError(input: Record<string, unknown>, schema = emailConfigSchema) {
  const result = schema.safeParse(input);
  if (result.success) return undefined;
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('e-mail configuration schema', () => {
  it('accepts a complete configuration, trimming text fields but not the password', () => {
    const parsed = emailConfigSchema.parse({ ...valid, senderName: '  Soovenirs ', smtpPassword: ' a b ' });
    expect(parsed.senderName).toBe('Soovenirs');
    expect(parsed.smtpPassword).toBe(' a b ');
  });

  it.each([
    ['senderEmail', 'pas-une-adresse', 'Adresse email invalide'],
    ['senderEmail', '', 'Adresse email invalide'],
    ['senderEmail', undefined, 'Adresse email invalide'],
    ['senderName', '   ', "Le nom de l'expéditeur est requis"],
    ['senderName', undefined, "Le nom de l'expéditeur est requis"],
    ['smtpHost', '', 'Le serveur SMTP est requis'],
    [
      'smtpHost',
      'smtp://ssl0.ovh.net',
      'Le serveur SMTP doit être un nom d’hôte ou une adresse IP (par exemple ssl0.ovh.net)',
    ],
    ['smtpPort', '', 'Le port SMTP est requis'],
    ['smtpPort', undefined, 'Le port SMTP est requis'],
    ['smtpPort', 25, 'Le port SMTP doit être 587 (TLS) ou 465 (SSL)'],
    ['smtpPort', '2525', 'Le port SMTP doit être 587 (TLS) ou 465 (SSL)'],
    ['smtpUsername', '', "Le nom d'utilisateur SMTP est requis"],
    ['smtpPassword', '', 'Le mot de passe SMTP est requis'],
    ['smtpPassword', undefined, 'Le mot de passe SMTP est requis'],
  ])('%s = %j -> %s', (field, value, message) => {
    expect(firstError({ ...valid, [field]: value })?.[field]).toBe(message);
  });

  it.each([
    [587, 587],
    ['587', 587],
    [465, 465],
    ['465', 465],
  ])('port %j is allowed', (port, expected) => {
    expect(emailConfigSchema.parse({ ...valid, smtpPort: port }).smtpPort).toBe(expected);
  });

  it('reads an unticked checkbox (absent field) as disabled', () => {
    const { enabled: _, ...withoutEnabled } = valid;
    expect(emailConfigSchema.parse(withoutEnabled).enabled).toBe(false);
  });

  it('lets the password be left empty when one is already stored', () => {
    const schema = createEmailConfigSchema({ passwordStored: true });
    expect(schema.parse({ ...valid, smtpPassword: '' }).smtpPassword).toBe('');
    expect(schema.parse({ ...valid, smtpPassword: undefined }).smtpPassword).toBe('');
    expect(schema.parse(valid).smtpPassword).toBe('S3cret-p@ss');
  });

  it('has the defaults, which are not yet a complete SMTP configuration', () => {
    expect(EMAIL_CONFIG_DEFAULTS).toEqual({
      enabled: true,
      senderEmail: 'no-reply@soovenirs.fr',
      senderName: 'Soovenirs',
      smtpHost: 'ssl0.ovh.net',
      smtpPort: 587,
      smtpUsername: '',
      smtpPassword: '',
    });
    expect(isSmtpConfigured(EMAIL_CONFIG_DEFAULTS)).toBe(false);
    expect(isSmtpConfigured(valid)).toBe(true);
  });

  it.each([
    [587, 'starttls'],
    [465, 'tls'],
  ])('port %i uses %s', (port, mode) => {
    expect(smtpSecurity(port)).toBe(mode);
  });
});

describe('test e-mail recipient', () => {
  it.each([
    ['', 'Veuillez saisir une adresse email'],
    ['  ', 'Veuillez saisir une adresse email'],
    [undefined, 'Veuillez saisir une adresse email'],
    ['nope', 'Adresse email invalide'],
  ])('%j -> %s', (to, message) => {
    const result = testEmailSchema.safeParse({ to });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });

  it('accepts an address', () => {
    expect(testEmailSchema.parse({ to: ' admin@soovenirs.fr ' }).to).toBe('admin@soovenirs.fr');
  });
});

describe('the dialog’s post, read as the action reads it (Conform)', () => {
  const form = {
    enabled: 'on',
    senderEmail: 'no-reply@soovenirs.fr',
    senderName: 'Soovenirs',
    smtpHost: 'ssl0.ovh.net',
    smtpPort: '465',
    smtpUsername: 'no-reply@soovenirs.fr',
    smtpPassword: '',
  };
  const savedServer = { smtpHost: 'ssl0.ovh.net', smtpPort: 465, smtpUsername: 'no-reply@soovenirs.fr' };
  const options = { passwordStored: true, savedServer };
  const posted = (entries: Record<string, string>) =>
    parseWithZod(new URLSearchParams(entries), { schema: createEmailConfigSchema(options) });

  it('keeps the stored password when the field is left empty for the saved server', () => {
    const kept = posted(form);
    expect(kept.status === 'success' && kept.value).toMatchObject({ enabled: true, smtpPort: 465, smtpPassword: '' });
  });

  it('asks for the password again for another server, and for a recipient to test', () => {
    const moved = posted({ ...form, smtpHost: 'collecte.attaquant.example' });
    expect(moved.status !== 'success' && moved.error).toEqual({
      smtpPassword: [EMAIL_CONFIG_MESSAGES.passwordForNewServer],
    });
    const test = parseWithZod(new URLSearchParams({ ...form, to: '' }), {
      schema: createTestEmailFormSchema(options),
    });
    expect(test.status !== 'success' && test.error).toEqual({ to: [EMAIL_CONFIG_MESSAGES.testRecipient] });
  });
});
