import { z } from 'zod';
import '../zod-config';
import { FORBIDDEN_CHARACTER_MESSAGE, hasNoForbiddenCharacter } from '../text-input';

/*
 * The e-mail configuration of the back office: stored as
 * JSON in config_options under `email_config`. One schema for the form in the browser and for the
 * server that saves it.
 */

/** 587: submission with STARTTLS (the dialog's "TLS"); 465: implicit TLS ("SSL"). */
export const SMTP_PORTS = [587, 465] as const;
export type SmtpPort = (typeof SMTP_PORTS)[number];
export const SMTP_PORT_LABELS: Readonly<Record<SmtpPort, string>> = { 587: '587 (TLS)', 465: '465 (SSL)' };

export interface EmailConfig {
  /** Whether customers are e-mailed when the status of their order changes. */
  enabled: boolean;
  senderEmail: string;
  senderName: string;
  smtpHost: string;
  smtpPort: SmtpPort;
  smtpUsername: string;
  smtpPassword: string;
}

export const EMAIL_CONFIG_OPTION = 'email_config';

export const EMAIL_CONFIG_DEFAULTS: Readonly<EmailConfig> = Object.freeze({
  enabled: true,
  senderEmail: 'no-reply@soovenirs.fr',
  senderName: 'Soovenirs',
  smtpHost: 'ssl0.ovh.net',
  smtpPort: 587,
  smtpUsername: '',
  smtpPassword: '',
});

export const EMAIL_CONFIG_MESSAGES = {
  senderEmail: 'Adresse email invalide',
  senderName: "Le nom de l'expéditeur est requis",
  smtpHost: 'Le serveur SMTP est requis',
  smtpHostInvalid: 'Le serveur SMTP doit être un nom d’hôte ou une adresse IP (par exemple ssl0.ovh.net)',
  smtpPort: 'Le port SMTP est requis',
  smtpPortAllowed: 'Le port SMTP doit être 587 (TLS) ou 465 (SSL)',
  smtpUsername: "Le nom d'utilisateur SMTP est requis",
  smtpPassword: 'Le mot de passe SMTP est requis',
  testRecipient: 'Veuillez saisir une adresse email',
  testFailed: "Échec de l'envoi",
  passwordForNewServer:
    'Saisissez à nouveau le mot de passe SMTP\u202F: le mot de passe enregistré n’est envoyé qu’au serveur, au port et à l’utilisateur enregistrés.',
  tooLong: (max: number) => `${max} caractères au maximum`,
} as const;

/** Where the stored password may be sent: the server, port and user it was saved with. */
export interface SavedSmtpServer {
  smtpHost: string;
  smtpPort: number;
  smtpUsername: string;
}

/**
 * Whether the form names the saved SMTP server (host case-insensitive). Anything else needs the
 * password typed again: otherwise an administrator's session alone could make the shop send the
 * stored password to a host of the attacker's choosing.
 */
export function isSavedSmtpServer(
  saved: SavedSmtpServer,
  candidate: { smtpHost: string; smtpPort: number; smtpUsername: string },
): boolean {
  return (
    saved.smtpHost.trim().toLowerCase() === candidate.smtpHost.trim().toLowerCase() &&
    Number(saved.smtpPort) === Number(candidate.smtpPort) &&
    saved.smtpUsername.trim() === candidate.smtpUsername.trim()
  );
}

/** A host name or an IPv4/IPv6 address: no scheme, port, path or space. */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[?[0-9A-Fa-f:.]+\]?)$/;

// `abort`: an empty field reports "required" only, not also the format checks that follow.
const required = (message: string, max: number) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(max, { error: EMAIL_CONFIG_MESSAGES.tooLong(max), abort: true })
    .refine(hasNoForbiddenCharacter, { error: FORBIDDEN_CHARACTER_MESSAGE, abort: true });

// Forms send the port as text, JSON as a number; an empty field is "missing", not 0.
const smtpPort = z.preprocess(
  (value) => (value === '' || value === null ? undefined : typeof value === 'string' ? Number(value) : value),
  z
    .number({ error: EMAIL_CONFIG_MESSAGES.smtpPort })
    .refine((port): port is SmtpPort => (SMTP_PORTS as readonly number[]).includes(port), {
      error: EMAIL_CONFIG_MESSAGES.smtpPortAllowed,
    }),
);

const password = z
  .string({ error: EMAIL_CONFIG_MESSAGES.smtpPassword })
  .max(1000, { error: EMAIL_CONFIG_MESSAGES.tooLong(1000), abort: true })
  .refine(hasNoForbiddenCharacter, { error: FORBIDDEN_CHARACTER_MESSAGE });

/**
 * The form's schema. With `passwordStored`, an empty password means "keep the stored one" (the
 * stored password is never sent back to the browser, so the form shows an empty field). With
 * `savedServer` (the server side knows it), an empty password is accepted only for that server.
 */
export function createEmailConfigSchema({
  passwordStored = false,
  savedServer,
}: {
  passwordStored?: boolean;
  savedServer?: SavedSmtpServer;
} = {}) {
  const schema = z.object({
    // A checkbox: absent from a submitted form when unticked.
    enabled: z.boolean().default(false),
    senderEmail: z
      .string({ error: EMAIL_CONFIG_MESSAGES.senderEmail })
      .trim()
      .max(254, { error: EMAIL_CONFIG_MESSAGES.senderEmail, abort: true })
      .pipe(z.email({ error: EMAIL_CONFIG_MESSAGES.senderEmail })),
    senderName: required(EMAIL_CONFIG_MESSAGES.senderName, 120),
    smtpHost: required(EMAIL_CONFIG_MESSAGES.smtpHost, 253).regex(HOST, {
      error: EMAIL_CONFIG_MESSAGES.smtpHostInvalid,
    }),
    smtpPort: smtpPort as z.ZodType<SmtpPort, unknown>,
    smtpUsername: required(EMAIL_CONFIG_MESSAGES.smtpUsername, 254),
    // Passwords are taken as typed: spaces may belong to them. One chain, no pipe: Conform reads an
    // empty field as missing in every string schema, a pipe's output included.
    smtpPassword: passwordStored ? password.default('') : password.min(1, EMAIL_CONFIG_MESSAGES.smtpPassword),
  });
  if (!savedServer) return schema;
  return schema.superRefine((value, context) => {
    if (value.smtpPassword === '' && !isSavedSmtpServer(savedServer, value)) {
      context.addIssue({ code: 'custom', path: ['smtpPassword'], message: EMAIL_CONFIG_MESSAGES.passwordForNewServer });
    }
  });
}

export const emailConfigSchema = createEmailConfigSchema();

/** What a browser may see of the configuration: never the password, only whether one is stored. */
export type PublicEmailConfig = Omit<EmailConfig, 'smtpPassword'> & { smtpPasswordSet: boolean };

/** Connection mode implied by the port, as the dialog's labels say. */
export function smtpSecurity(port: number): 'starttls' | 'tls' {
  return port === 465 ? 'tls' : 'starttls';
}

/** Everything needed to open an authenticated SMTP session is present. */
export function isSmtpConfigured(config: Pick<EmailConfig, 'smtpHost' | 'smtpUsername' | 'smtpPassword'>): boolean {
  return config.smtpHost.trim() !== '' && config.smtpUsername.trim() !== '' && config.smtpPassword !== '';
}

/** The test e-mail's recipient field of the configuration dialog. */
export const testEmailSchema = z.object({
  to: z
    .string({ error: EMAIL_CONFIG_MESSAGES.testRecipient })
    .trim()
    .min(1, { error: EMAIL_CONFIG_MESSAGES.testRecipient, abort: true })
    .pipe(z.email({ error: EMAIL_CONFIG_MESSAGES.senderEmail })),
});

/**
 * The configuration dialog's « Envoyer un email de test »: the recipient, and the settings as typed
 * (saved or not), with the same rules as a save.
 */
export function createTestEmailFormSchema(options: Parameters<typeof createEmailConfigSchema>[0] = {}) {
  return z.intersection(createEmailConfigSchema(options), testEmailSchema);
}

/** The dialog's fields as the browser's form holds them (the port as text). */
export type EmailConfigFormInput = Omit<EmailConfig, 'smtpPort'> & { smtpPort: string; to: string };
