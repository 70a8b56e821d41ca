import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { COUNT_CAP_DEFAULT, type ListPage, pageOf } from '~/domain/admin/paging';
import { isOutboxStatus, type OutboxRow, type OutboxStatus, RESEND_REFUSALS } from '~/domain/admin/views';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { enqueueEmail, retryFailedEmail } from '../email/outbox.server';
import { type EmailTemplateName, isSensitiveTemplate } from '../email/templates/registry';
import { isoTimestamp, isoTimestampOrNull } from './search-sql.server';

/*
 * The e-mail outbox as the Configuration Email dialog shows it: what was sent, what waits for an
 * SMTP configuration (held), what failed, and a resend action (a failed message gets a fresh set
 * of attempts; a sent one is queued again as a copy; a single-use link is never re-sent).
 */

export async function listOutbox(status: OutboxStatus, page: number, pageSize = 10): Promise<ListPage<OutboxRow>> {
  const offset = (page - 1) * pageSize;
  const [rows, counted] = await Promise.all([
    db().execute(sql`
      select id, created_at, "to", template, data->>'orderNumber' as order_number, status, attempts, last_error, sent_at
      from email_outbox where status = ${status}
      order by created_at desc nulls last limit ${pageSize} offset ${offset}`),
    db().execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from email_outbox where status = ${status} limit ${COUNT_CAP_DEFAULT + 1}) t`),
  ]);
  return pageOf(
    rows.rows.map((r) => ({
      id: String(r.id),
      createdAt: isoTimestamp(r.created_at),
      to: String(r.to),
      template: String(r.template),
      subject: r.order_number ? `Commande ${String(r.order_number)}` : null,
      status: r.status as OutboxStatus,
      attempts: Number(r.attempts),
      lastError: (r.last_error as string | null) ?? null,
      sentAt: isoTimestampOrNull(r.sent_at),
      resendable: !isSensitiveTemplate(String(r.template)),
    })),
    page,
    Number(counted.rows[0]?.n ?? 0),
    pageSize,
  );
}

/** Number of messages per status (each counted up to the cap), for the dialog's sub-tabs. */
export async function outboxCounts(): Promise<Record<OutboxStatus, number>> {
  const result = await db().execute(sql`
    select s.status, (select count(*) from (select 1 from email_outbox o where o.status = s.status
      limit ${COUNT_CAP_DEFAULT + 1}) t)::int as n
    from unnest(array['sent', 'queued', 'held', 'failed']) as s(status)`);
  const counts = { sent: 0, queued: 0, held: 0, failed: 0 };
  for (const row of result.rows) if (isOutboxStatus(row.status)) counts[row.status] = Number(row.n);
  return counts;
}

export type ResendResult =
  | { ok: true; kind: 'retried' | 'copied'; id: string }
  | { ok: false; reason: 'not-found' | 'held' | 'queued' }
  | { ok: false; reason: 'single-use'; message: string };

/**
 * Resends a message: a failed one is retried, a sent one is queued again as a new message. Not an
 * e-mail whose link serves once (password reset, magic link, invitation: `sensitive` templates):
 * its data was wiped once sent, and a link used or replaced since would not work anyway; whoever
 * needs one asks for a new link.
 */
export async function resendEmail(id: string, actor: AuditActor = 'system'): Promise<ResendResult> {
  return db().transaction(async (tx) => {
    const found = await tx.execute(sql`
      select id, "to", template, data, status, order_id from email_outbox where id = ${id} for update`);
    const row = found.rows[0] as
      | { id: string; to: string; template: string; data: unknown; status: string; order_id: string | null }
      | undefined;
    if (!row) return { ok: false, reason: 'not-found' } as const;
    if (row.status === 'held' || row.status === 'queued') return { ok: false, reason: row.status } as const;
    if (isSensitiveTemplate(row.template)) {
      return { ok: false, reason: 'single-use', message: RESEND_REFUSALS['single-use'] as string } as const;
    }
    await recordAudit(tx, {
      actor,
      kind: 'email.resend',
      subject: row.order_id ?? row.id,
      ...(row.order_id ? {} : { subjectLabel: null }),
      after: { template: row.template, recipient: row.to },
    });
    if (row.status === 'failed') {
      await retryFailedEmail(id, tx);
      return { ok: true, kind: 'retried', id } as const;
    }
    const copy = await enqueueEmail(tx, {
      to: row.to,
      template: row.template as EmailTemplateName,
      // Stored sealed; enqueueEmail checks the data in clear and seals it again.
      data: row.data as never,
      dedupeKey: `resend:${id}:${randomUUID()}`,
      orderId: row.order_id,
    });
    return { ok: true, kind: 'copied', id: copy.id } as const;
  });
}
