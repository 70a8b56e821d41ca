import { sql } from 'drizzle-orm';
import { db } from '../../db/client.server';
import { type SaveEmailConfigResult, saveEmailConfig } from '../email-config.server';
import type { EmailWorkerOptions } from '../worker.server';
import type { TestSmtpServer } from './smtp-test-server';

/** Links in e-mails are made absolute with BASE_URL; Vitest itself sets BASE_URL to "/". */
export const TEST_BASE_URL = 'https://www.soovenirs.test';

/** Saves an e-mail configuration pointing at the test server (port 465 for implicit TLS, else 587). */
export async function configureSmtpFor(
  server: TestSmtpServer,
  mode: 'starttls' | 'tls',
  overrides: Record<string, unknown> = {},
): Promise<SaveEmailConfigResult> {
  const result = await saveEmailConfig({
    enabled: true,
    senderEmail: 'no-reply@soovenirs.fr',
    senderName: 'Soovenirs',
    smtpHost: '127.0.0.1',
    smtpPort: mode === 'tls' ? 465 : 587,
    smtpUsername: server.username,
    smtpPassword: server.password,
    ...overrides,
  });
  if (!result.success && Object.keys(overrides).length === 0) {
    throw new Error(`configureSmtpFor: ${result.error} ${JSON.stringify(result.fieldErrors)}`);
  }
  return result;
}

/** Worker options for a test server: its real port, its certificate trusted, short delays. */
export function workerOptionsFor(server: TestSmtpServer, extra: EmailWorkerOptions = {}): EmailWorkerOptions {
  return {
    pollMs: 100,
    backoffMs: 20,
    leaseMs: 30_000,
    ...extra,
    smtp: { port: server.port, tls: { ca: server.cert }, timeoutMs: 3_000, ...extra.smtp },
  };
}

export interface OutboxRow {
  id: string;
  to: string;
  template: string;
  data: unknown;
  status: string;
  attempts: number;
  dedupe_key: string | null;
  provider_message_id: string | null;
  last_error: string | null;
  /** As text: drizzle leaves timestamps of raw queries unparsed. */
  sent_at: string | null;
  order_id: string | null;
}

export async function outboxRows(): Promise<OutboxRow[]> {
  const result = await db().execute(sql`select * from email_outbox order by created_at, id`);
  return result.rows as unknown as OutboxRow[];
}

export async function clearOutbox(): Promise<void> {
  await db().execute(sql`delete from email_outbox`);
}

/** A test's clean start: no message in the outbox, no stored setting, nothing received by `peers`. */
export async function resetEmailState(...peers: TestSmtpServer[]): Promise<void> {
  await clearOutbox();
  await db().execute(sql`delete from config_options`);
  for (const peer of peers) peer.messages.length = 0;
}

export async function waitFor<T>(probe: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}
