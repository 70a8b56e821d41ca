import type { ConnectionOptions } from 'node:tls';
import nodemailer, { type SMTPTransportOptions } from 'nodemailer';
import { company as SHOP_IDENTITY } from '~/domain/company';
import { type EmailConfig, smtpSecurity } from '~/domain/email/email-config';
import type { DkimSigning } from './dkim.server';
import type { RenderedEmail } from './templates/registry';

/*
 * SMTP from the stored configuration. Port 587 is submission with STARTTLS, required (a server
 * that does not offer it is refused: the password never crosses the network in clear); 465 is
 * implicit TLS. Certificates are verified; only an explicit setting turns that off:
 *  - SMTP_TLS_REJECT_UNAUTHORIZED=false, for a development server with a self-signed certificate;
 *  - SMTP_CONNECT_PORT=2525, to reach a local test server on another port than the configured
 *    587/465 (the TLS mode still follows the configured port);
 *  - or the same through `SmtpOverrides`, which tests pass in (e.g. `tls: { ca }`).
 */

export interface SmtpOverrides {
  /** Connect to this port instead of the configured one (tests, local development). */
  port?: number;
  /** Extra TLS options, e.g. the CA of a test server's self-signed certificate. */
  tls?: ConnectionOptions;
  /** Connection, greeting and socket time-outs (ms); tests shorten them. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 20_000;

export function smtpTransportOptions(config: EmailConfig, overrides: SmtpOverrides = {}): SMTPTransportOptions {
  const implicitTls = smtpSecurity(config.smtpPort) === 'tls';
  const envPort = Number(process.env.SMTP_CONNECT_PORT);
  const timeout = overrides.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  return {
    host: config.smtpHost,
    port: overrides.port ?? (Number.isInteger(envPort) && envPort > 0 ? envPort : config.smtpPort),
    secure: implicitTls,
    requireTLS: !implicitTls,
    auth: { user: config.smtpUsername, pass: config.smtpPassword },
    tls: {
      rejectUnauthorized: process.env.SMTP_TLS_REJECT_UNAUTHORIZED !== 'false',
      minVersion: 'TLSv1.2',
      ...overrides.tls,
    },
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout * 2,
    // Nodemailer's own logger stays off: it would print addresses and message contents.
    logger: false,
    debug: false,
  };
}

function senderDomain(config: EmailConfig): string {
  return config.senderEmail.split('@')[1] ?? SHOP_IDENTITY.domain;
}

export interface SmtpResult {
  messageId: string;
  response: string;
}

/**
 * Sends one message over a fresh connection. `messageKey` (the outbox row id) makes the
 * Message-ID, so that a message sent again after a crash carries the same id.
 */
export async function sendOverSmtp(
  config: EmailConfig,
  message: RenderedEmail & { to: string; messageKey: string; dkim?: DkimSigning | null },
  overrides: SmtpOverrides = {},
): Promise<SmtpResult> {
  // Signed with the shop's DKIM key when one is saved (dkim.server.ts): nodemailer signs the
  // headers and body it sends, as receiving servers check them against the published record.
  const transport = nodemailer.createTransport({
    ...smtpTransportOptions(config, overrides),
    ...(message.dkim ? { dkim: message.dkim } : {}),
  });
  try {
    const info = await transport.sendMail({
      from: { name: config.senderName, address: config.senderEmail },
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      html: message.html,
      text: message.text,
      attachments: message.attachments.map(({ filename, contentType, content }) => ({
        filename,
        contentType,
        content,
      })),
      messageId: `<${message.messageKey}@${senderDomain(config)}>`,
      headers: {
        'Content-Language': 'fr',
        // Every automatic message says so (RFC 3834): out-of-office replies do not answer it.
        ...(message.automatic === false ? {} : { 'Auto-Submitted': 'auto-generated' }),
      },
    });
    return { messageId: info.serverMessageId ?? info.messageId, response: info.response };
  } finally {
    transport.close();
  }
}

export type SmtpFailure =
  /** The server refused this recipient or this message for good (5xx on RCPT TO or DATA). */
  | { kind: 'rejected'; reason: string }
  /** The server refused our credentials: nothing will go out until the configuration changes. */
  | { kind: 'auth'; reason: string }
  /** Anything else (server down, time-out, 4xx): try again later. */
  | { kind: 'transient'; reason: string };

interface SmtpErrorShape {
  code?: string;
  responseCode?: number;
  command?: string;
  response?: string;
  message?: string;
}

export function classifySmtpError(error: unknown): SmtpFailure {
  const e = (error ?? {}) as SmtpErrorShape;
  const reason = (e.response ?? e.message ?? String(error)).slice(0, 1000);
  const code = e.responseCode ?? 0;
  if (e.code === 'EAUTH' && code >= 500) return { kind: 'auth', reason };
  if (code >= 500 && code !== 503 && (e.command === 'RCPT TO' || e.command === 'DATA' || e.code === 'EMESSAGE')) {
    return { kind: 'rejected', reason };
  }
  return { kind: 'transient', reason };
}
