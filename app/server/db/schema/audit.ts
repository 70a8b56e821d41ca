import { sql } from 'drizzle-orm';
import { bigserial, date, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/*
 * The back office's audit log (docs/decisions/017-audit-log.md): who did what, when, and
 * what it was before and after. Append-only in the database itself: a trigger (migration 0010)
 * refuses every UPDATE, and a DELETE of any row whose `keep_until` is not past. The actor's name
 * and role are copied at the time, so that a deactivated person's entries keep their name; there
 * is no foreign key to `user` for the same reason (and because ON DELETE would have to update).
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** The staff member's user id; null for `system`. */
    actorId: text('actor_id'),
    actorName: text('actor_name').notNull(),
    actorRole: text('actor_role').notNull(),
    /** What was done (domain/audit/kinds.ts), e.g. `order.status`, `price.change`. */
    kind: text('kind').notNull(),
    /** On what: an order id, a setting's name, a staff member's e-mail... */
    subject: text('subject').notNull(),
    /** A human label of the subject when it differs from the key (the order's number). */
    subjectLabel: text('subject_label'),
    before: jsonb('before'),
    after: jsonb('after'),
    /** The end of the retention period (domain/audit/retention.ts): rows are deletable after it. */
    keepUntil: date('keep_until', { mode: 'string' }).notNull(),
  },
  (t) => [
    index('audit_log_at_idx').on(sql`${t.at} desc`),
    index('audit_log_actor_at_idx').on(t.actorId, t.at),
    index('audit_log_kind_at_idx').on(t.kind, t.at),
  ],
);
