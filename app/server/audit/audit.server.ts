import { and, count, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import type { AuditFields } from '~/domain/audit/changes';
import {
  JOURNAL_PAGE_SIZE,
  type JournalFilters,
  type JournalPage,
  SYSTEM_PERSON,
} from '~/domain/audit/journal-filters';
import { type AuditKind, isOrderKind, SYSTEM_ACTOR_NAME } from '~/domain/audit/kinds';
import { DEFAULT_RETENTION_YEARS, keepUntil } from '~/domain/audit/retention';
import { type Database, db, type Tx } from '../db/client.server';
import { auditLog, user } from '../db/schema';

/*
 * The audit log's writer and reader (docs/decisions/017-audit-log.md). `recordAudit` is
 * called by the app/server functions that perform back-office actions, inside their own transaction
 * when they have one, so that an action rolled back leaves no entry and an entry never describes
 * an action that did not happen. The table is append-only in the database (migration 0010).
 */

/** Who acted: a staff member's user id, or `system` for the shop's own work. */
export type AuditActor = string;

export interface AuditEntry {
  actor: AuditActor;
  kind: AuditKind;
  /** The key of what was acted on: an order id, a setting's name, a price list, an e-mail... */
  subject: string;
  /** How people know it, when it differs from the key (the order's number). */
  subjectLabel?: string | null;
  before?: AuditFields | null;
  after?: AuditFields | null;
  at?: Date;
}

interface ResolvedActor {
  id: string | null;
  name: string;
  role: string;
}

const SYSTEM: ResolvedActor = { id: null, name: SYSTEM_ACTOR_NAME, role: 'system' };

/**
 * A staff member's name and role as they are now (frozen in the entry), or null when `actor` is no
 * staff member (a customer, a guest, a gateway's name, an unknown id). Staff are the users whose
 * role is not `customer` (admin, atelier, comptabilite).
 */
export async function staffActor(executor: Database | Tx, actor: AuditActor): Promise<ResolvedActor | null> {
  if (actor === 'system') return SYSTEM;
  const [row] = await executor
    .select({
      id: user.id,
      name: sql<string>`coalesce(nullif(trim(concat_ws(' ', ${user.firstName}, ${user.lastName})), ''), nullif(trim(${user.name}), ''), ${user.email})`,
      role: user.role,
    })
    .from(user)
    .where(and(eq(user.id, actor), sql`${user.role} <> 'customer'`));
  return row ?? null;
}

async function insertEntry(executor: Database | Tx, who: ResolvedActor, entry: AuditEntry): Promise<void> {
  const at = entry.at ?? new Date();
  // An order is known by its number: looked up when the caller did not have it at hand.
  const subjectLabel =
    entry.subjectLabel === undefined && isOrderKind(entry.kind) ? await orderNumber(executor, entry.subject) : null;
  await executor.insert(auditLog).values({
    at,
    actorId: who.id,
    actorName: who.name,
    actorRole: who.role,
    kind: entry.kind,
    subject: entry.subject,
    subjectLabel: entry.subjectLabel ?? subjectLabel,
    before: entry.before ?? null,
    after: entry.after ?? null,
    keepUntil: keepUntil(entry.kind, at),
  });
}

async function orderNumber(executor: Database | Tx, orderId: string): Promise<string | null> {
  const result = await executor.execute<{ number: string }>(sql`select number from orders where id::text = ${orderId}`);
  return result.rows[0]?.number ?? null;
}

/**
 * Writes one entry in the caller's transaction (or on its own). A back-office action always has a
 * staff actor: an actor that is not one is recorded under its own id as it was given, so that an
 * entry is never silently lost.
 */
export async function recordAudit(executor: Database | Tx, entry: AuditEntry): Promise<void> {
  const who = (await staffActor(executor, entry.actor)) ?? { id: entry.actor, name: entry.actor, role: 'inconnu' };
  await insertEntry(executor, who, entry);
}

/** Writes the entry only when `entry.actor` is a staff member (the lifecycle, which customers use too). */
export async function recordStaffAudit(executor: Database | Tx, entry: AuditEntry): Promise<boolean> {
  if (entry.actor === 'system') return false;
  const who = await staffActor(executor, entry.actor);
  if (!who) return false;
  await insertEntry(executor, who, entry);
  return true;
}

/**
 * Deletes the entries whose retention period is over (docs/decisions/017: 2 years, 10 for money),
 * a batch at a time; run by the housekeeping. Only entries older than the shortest period can be
 * due, which the index on `at` finds without reading the whole log; the database itself refuses
 * to delete anything still kept (migration 0010).
 */
export async function deleteExpiredAuditEntries(batch = 1000): Promise<number> {
  const deleted = await db().execute(sql`
    delete from audit_log where id in (
      select id from audit_log
      where at < now() - make_interval(years => ${DEFAULT_RETENTION_YEARS}) and keep_until < current_date
      order by at limit ${batch})
    returning id`);
  return deleted.rows.length;
}

// --- The « Journal » page --------------------------------------------------------------------

const periodStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;
const periodEnd = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'Europe/Paris'`;

/** One page of entries, newest first, with the filters applied in SQL (the page's indexes). */
export async function listJournal(filters: JournalFilters, database: Database = db()): Promise<JournalPage> {
  const where = and(
    filters.person === SYSTEM_PERSON ? isNull(auditLog.actorId) : undefined,
    filters.person && filters.person !== SYSTEM_PERSON ? eq(auditLog.actorId, filters.person) : undefined,
    filters.kind ? eq(auditLog.kind, filters.kind) : undefined,
    filters.from ? gte(auditLog.at, sql`${periodStart(filters.from)}`) : undefined,
    filters.to ? lt(auditLog.at, sql`${periodEnd(filters.to)}`) : undefined,
  );
  const [totalRow] = await database.select({ n: count() }).from(auditLog).where(where);
  const total = Number(totalRow?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / JOURNAL_PAGE_SIZE));
  const page = Math.min(filters.page, pageCount);
  const rows = await database
    .select()
    .from(auditLog)
    .where(where)
    .orderBy(desc(auditLog.at), desc(auditLog.id))
    .limit(JOURNAL_PAGE_SIZE)
    .offset((page - 1) * JOURNAL_PAGE_SIZE);
  return {
    total,
    page,
    pageCount,
    entries: rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actorName: row.actorName,
      actorRole: row.actorRole,
      kind: row.kind,
      subject: row.subject,
      subjectLabel: row.subjectLabel,
      isOrder: isOrderKind(row.kind) && row.subjectLabel !== null,
      before: (row.before as AuditFields | null) ?? null,
      after: (row.after as AuditFields | null) ?? null,
    })),
  };
}

/** The people of the person filter: everyone who has an entry, under their latest name. */
export async function journalPeople(database: Database = db()): Promise<Array<{ id: string; name: string }>> {
  const result = await database.execute<{ id: string; name: string }>(sql`
    select distinct on (actor_id) actor_id as id, actor_name as name
    from audit_log where actor_id is not null
    order by actor_id, at desc`);
  return result.rows.sort((a, b) => a.name.localeCompare(b.name, 'fr'));
}
