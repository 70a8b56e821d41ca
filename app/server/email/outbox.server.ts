import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../config/config-options.server';
import { db } from '../db/client.server';
import { emailOutbox } from '../db/schema';
import { EMAIL_CONFIG_LOCK_KEY, OUTBOX_CHANNEL } from './constants.server';
import { readStoredEmailConfig, storedSmtpIsComplete } from './email-config.server';
import { revealEmailData, sealEmailData, secretFieldsOf } from './sealed-data.server';
import { EMAIL_TEMPLATES, type EmailTemplateData, type EmailTemplateName, parseEmailData } from './templates/registry';

/*
 * The transactional outbox (docs/decisions/031-email-outbox.md). A business change and the e-mail
 * it causes are written in one transaction: either both happen or neither. The worker
 * (worker.server.ts) sends the rows later, so an SMTP outage delays e-mails but loses none.
 */

export interface EnqueueEmailInput<N extends EmailTemplateName = EmailTemplateName> {
  to: string;
  template: N;
  data: EmailTemplateData<N>;
  /**
   * Names the event that causes the e-mail (e.g. `order-status:{orderId}:{eventId}`): queueing the
   * same key again is a no-op, so a retried request or a replayed webhook sends one message.
   */
  dedupeKey: string;
  orderId?: string | null;
  /** Not sent before this instant (a gift card e-mailed on the day the buyer chose); now when absent. */
  notBefore?: Date;
}

export interface EnqueuedEmail {
  id: string;
  /** False when a row with this dedupe key already existed (nothing was added). */
  created: boolean;
  status: 'queued' | 'sent' | 'failed' | 'held';
}

const recipientSchema = z.email();

export class InvalidRecipientError extends Error {
  constructor(to: string) {
    super(`Not an e-mail address: ${JSON.stringify(to)}`);
    this.name = 'InvalidRecipientError';
  }
}

/**
 * Adds an e-mail to the outbox inside the caller's transaction. The data is checked against the
 * template now (a mistake fails the caller, not a worker an hour later). When SMTP is not
 * configured the row is `held` until the configuration is saved. The worker is woken when the
 * transaction commits (NOTIFY is delivered at commit, and not at all on rollback).
 */
export async function enqueueEmail<N extends EmailTemplateName>(
  tx: Executor,
  input: EnqueueEmailInput<N>,
): Promise<EnqueuedEmail> {
  const to = input.to.trim();
  if (!recipientSchema.safeParse(to).success) throw new InvalidRecipientError(input.to);
  // Data copied from another row (a resend) may hold sealed fields: checked in clear, stored sealed.
  const { data } = parseEmailData(input.template, revealEmailData(input.template, input.data));

  // Shared lock: a concurrent saveEmailConfig either sees this row or is seen by it (constants.server.ts).
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${EMAIL_CONFIG_LOCK_KEY})`);
  const status = storedSmtpIsComplete(await readStoredEmailConfig(tx)) ? 'queued' : 'held';

  const [inserted] = await tx
    .insert(emailOutbox)
    .values({
      to,
      template: input.template,
      data: sealEmailData(input.template, data),
      status,
      dedupeKey: input.dedupeKey,
      orderId: input.orderId ?? null,
      ...(input.notBefore ? { nextAt: input.notBefore } : {}),
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id, status: emailOutbox.status });

  if (inserted) {
    if (status === 'queued') await tx.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
    return { id: inserted.id, created: true, status: inserted.status };
  }
  const [existing] = await tx
    .select({ id: emailOutbox.id, status: emailOutbox.status })
    .from(emailOutbox)
    .where(eq(emailOutbox.dedupeKey, input.dedupeKey))
    .limit(1);
  if (!existing) throw new Error(`email_outbox: dedupe key ${input.dedupeKey} conflicted but no row was found`);
  return { id: existing.id, created: false, status: existing.status };
}

/** For callers without a business transaction of their own (auth e-mails, the send-email endpoint). */
export function queueEmail<N extends EmailTemplateName>(input: EnqueueEmailInput<N>): Promise<EnqueuedEmail> {
  return db().transaction((tx) => enqueueEmail(tx, input));
}

/** Gives a failed message a fresh set of attempts (back office). Returns whether a row was requeued. */
export async function retryFailedEmail(id: string, executor: Executor = db()): Promise<boolean> {
  const rows = await executor
    .update(emailOutbox)
    .set({ status: 'queued', attempts: 0, nextAt: sql`now()`, lastError: null })
    .where(and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'failed')))
    .returning({ id: emailOutbox.id });
  if (rows.length > 0) await executor.execute(sql`select pg_notify(${OUTBOX_CHANNEL}, '')`);
  return rows.length > 0;
}

/**
 * Encrypts the private links of rows written before they were sealed (sealed-data.server.ts), in
 * place. Run when the worker starts; idempotent, and a no-op once every row is sealed.
 */
export async function sealClearOutboxLinks(executor: Executor = db()): Promise<number> {
  const clear = Object.keys(EMAIL_TEMPLATES).flatMap((template) =>
    secretFieldsOf(template).map((field) => {
      const path = `{${field.split('.').join(',')}}`;
      return sql`(template = ${template} and jsonb_typeof(data #> ${path}::text[]) = 'string' and data #>> ${path}::text[] not like 'v1.%')`;
    }),
  );
  if (clear.length === 0) return 0;
  const found = await executor.execute<{ id: string; template: string; data: unknown }>(
    sql`select id, template, data from email_outbox where ${sql.join(clear, sql` or `)}`,
  );
  for (const row of found.rows) {
    await executor
      .update(emailOutbox)
      .set({ data: sealEmailData(row.template, row.data) })
      .where(eq(emailOutbox.id, row.id));
  }
  return found.rows.length;
}

/**
 * What waits in the outbox, for the metrics (observability/metrics.server.ts): messages queued and
 * held, and the age of the oldest queued one in seconds (0 when none waits).
 */
export async function outboxBacklog(executor: Executor = db()) {
  const { rows } = await executor.execute<{ queued: number; held: number; oldest: number }>(sql`
    select count(*) filter (where status = 'queued')::int as queued,
           count(*) filter (where status = 'held')::int as held,
           coalesce(extract(epoch from now() - min(created_at) filter (where status = 'queued')), 0)::float8 as oldest
    from email_outbox where status in ('queued', 'held')`);
  const row = rows[0];
  return { queued: row?.queued ?? 0, held: row?.held ?? 0, oldestQueuedSeconds: row?.oldest ?? 0 };
}
