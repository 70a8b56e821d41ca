import { sql } from 'drizzle-orm';
import { check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ReportTotals } from '../../../domain/e-reporting/assembly';
import { user } from './auth';

/*
 * E-reporting transmissions (docs/e-reporting.md): one row per period and kind, prepared once the
 * period is over, with its figures and its file frozen at that moment. Only its delivery changes:
 * `prepared` (waiting to be sent), `sent` (the plateforme agréée took it: its flow id), `exported`
 * (no platform configured: the file waits to be deposited by hand), `failed` (the platform refused
 * or could not be reached: sent again later), `deposited` (an operator deposited it by hand).
 */
export const eReportingTransmissions = pgTable(
  'e_reporting_transmissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['transactions', 'payments'] }).notNull(),
    periodStart: date('period_start').notNull(),
    periodEnd: date('period_end').notNull(),
    deadline: date('deadline').notNull(),
    /** The VAT regime the period was cut by. */
    regime: text('regime').notNull(),
    totals: jsonb('totals').$type<ReportTotals>().notNull(),
    fileName: text('file_name').notNull(),
    /** The XML, as sent or exported (UTF-8). */
    fileContent: text('file_content').notNull(),
    status: text('status', { enum: ['prepared', 'sent', 'exported', 'failed', 'deposited'] })
      .notNull()
      .default('prepared'),
    /** The plateforme agréée's identifier of the deposited flow. */
    flowId: text('flow_id'),
    lastError: text('last_error'),
    attempts: integer('attempts').notNull().default(0),
    preparedAt: timestamp('prepared_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** Deposited by hand: when, and by whom. */
    depositedAt: timestamp('deposited_at', { withTimezone: true }),
    depositedBy: text('deposited_by').references(() => user.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // A period is prepared once, whatever the number of instances or passes.
    uniqueIndex('e_reporting_transmissions_period_idx').on(t.kind, t.periodStart, t.periodEnd),
    index('e_reporting_transmissions_status_idx').on(t.status),
    index('e_reporting_transmissions_deposited_by_idx').on(t.depositedBy),
    check('e_reporting_transmissions_kind_check', sql`${t.kind} in ('transactions', 'payments')`),
    check(
      'e_reporting_transmissions_status_check',
      sql`${t.status} in ('prepared', 'sent', 'exported', 'failed', 'deposited')`,
    ),
    check('e_reporting_transmissions_period_check', sql`${t.periodEnd} >= ${t.periodStart}`),
  ],
);
