import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * Migrations are written expand-then-contract (docs/operations.md, « Upgrading »): during a rolling
 * update version N still runs on the database N+1 migrated, and rolling back is deploying N again.
 * So a migration only adds; what removes or changes something a previous release used is a
 * « contract » step, listed in drizzle/contract-steps.json with the release that stopped using it.
 * The migrations up to the recorded baseline were written before the rule and are not checked.
 */

const DRIZZLE = path.resolve(import.meta.dirname, '../../../drizzle');

interface ContractSteps {
  baseline: string;
  contractSteps: Array<{ migration: string; release: string; reason: string }>;
}

/** What would break the previous release running on the migrated database. */
const DESTRUCTIVE: Array<{ what: string; pattern: RegExp }> = [
  { what: 'DROP TABLE', pattern: /\bDROP\s+TABLE\b/i },
  { what: 'DROP COLUMN', pattern: /\bDROP\s+COLUMN\b/i },
  {
    what: 'DROP TYPE, VIEW, SCHEMA, SEQUENCE or FUNCTION',
    pattern: /\bDROP\s+(TYPE|VIEW|MATERIALIZED\s+VIEW|SCHEMA|SEQUENCE|FUNCTION)\b/i,
  },
  { what: 'RENAME', pattern: /\bRENAME\b/i },
  { what: 'ALTER COLUMN … TYPE', pattern: /\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b/i },
  // A TRUNCATE statement; not a trigger refusing one (BEFORE TRUNCATE … EXECUTE FUNCTION).
  { what: 'TRUNCATE', pattern: /^TRUNCATE\b/i },
];

/** The statements of a drizzle migration, comments removed. */
function statements(sql: string): string[] {
  return sql
    .split('--> statement-breakpoint')
    .flatMap((part) => part.replace(/--[^\n]*/g, '').split(';'))
    .map((statement) => statement.trim())
    .filter(Boolean);
}

/**
 * The destructive statements of a migration. A column made NOT NULL breaks the previous release's
 * inserts unless it has a default: `SET NOT NULL` passes only when the same migration gives that
 * column a default, and a column added NOT NULL only with its DEFAULT.
 */
function destructiveStatements(sql: string): string[] {
  const all = statements(sql);
  const defaulted = new Set(
    all.flatMap((s) => [...s.matchAll(/ALTER\s+COLUMN\s+"?(\w+)"?\s+SET\s+DEFAULT\b/gi)].map((m) => m[1])),
  );
  const found: string[] = [];
  for (const statement of all) {
    for (const { what, pattern } of DESTRUCTIVE) if (pattern.test(statement)) found.push(`${what}: ${statement}`);
    for (const match of statement.matchAll(/ALTER\s+COLUMN\s+"?(\w+)"?\s+SET\s+NOT\s+NULL\b/gi)) {
      if (!defaulted.has(match[1])) found.push(`SET NOT NULL without a default: ${statement}`);
    }
    if (/\bADD\s+COLUMN\b/i.test(statement) && /\bNOT\s+NULL\b/i.test(statement) && !/\bDEFAULT\b/i.test(statement))
      found.push(`ADD COLUMN … NOT NULL without a default: ${statement}`);
  }
  return found;
}

function journal(): string[] {
  const text = fs.readFileSync(path.join(DRIZZLE, 'meta/_journal.json'), 'utf8');
  return (JSON.parse(text) as { entries: Array<{ tag: string }> }).entries.map((entry) => entry.tag);
}

function contract(): ContractSteps {
  return JSON.parse(fs.readFileSync(path.join(DRIZZLE, 'contract-steps.json'), 'utf8')) as ContractSteps;
}

describe('migrations, expand then contract', () => {
  it('only add after the baseline, unless listed as a contract step with the release that stopped using it', () => {
    const tags = journal();
    const { baseline, contractSteps } = contract();
    const start = tags.indexOf(baseline);
    expect(start, `baseline ${baseline} is in drizzle/meta/_journal.json`).toBeGreaterThanOrEqual(0);
    const contracts = new Map(contractSteps.map((step) => [step.migration, step]));
    const offending: Record<string, string[]> = {};
    for (const tag of tags.slice(start + 1)) {
      const found = destructiveStatements(fs.readFileSync(path.join(DRIZZLE, `${tag}.sql`), 'utf8'));
      if (found.length > 0 && !contracts.has(tag)) offending[tag] = found;
    }
    // Write it in two releases (docs/operations.md, « Upgrading »): add now, remove later.
    expect(offending).toEqual({});
    for (const step of contractSteps) {
      expect(tags.slice(start + 1), `contract step ${step.migration} is a migration after the baseline`).toContain(
        step.migration,
      );
      expect(step.release.trim(), `${step.migration} names the release that stopped using it`).not.toBe('');
      expect(step.reason.trim(), `${step.migration} says what it removes`).not.toBe('');
    }
  });

  it('finds what would break the previous release, in drizzle-kit’s own output', () => {
    const breakpoint = '--> statement-breakpoint\n';
    expect(
      destructiveStatements(
        [
          'ALTER TABLE "orders" DROP COLUMN "note";',
          'ALTER TABLE "orders" RENAME COLUMN "total" TO "total_cents";',
          'ALTER TABLE "orders" ALTER COLUMN "total" SET DATA TYPE bigint;',
          'ALTER TABLE "orders" ALTER COLUMN "email" SET NOT NULL;',
          'ALTER TABLE "orders" ADD COLUMN "channel" text NOT NULL;',
          'DROP TABLE "legacy" CASCADE;',
        ].join(breakpoint),
      ).map((found) => found.split(':')[0]),
    ).toEqual([
      'DROP COLUMN',
      'RENAME',
      'ALTER COLUMN … TYPE',
      'SET NOT NULL without a default',
      'ADD COLUMN … NOT NULL without a default',
      'DROP TABLE',
    ]);
    // What only adds, or widens, passes.
    expect(
      destructiveStatements(
        [
          'CREATE TABLE "labels" ("id" uuid PRIMARY KEY NOT NULL, "name" text NOT NULL);',
          'ALTER TABLE "orders" ADD COLUMN "channel" text DEFAULT \'web\' NOT NULL;',
          'ALTER TABLE "orders" ADD COLUMN "note" text;',
          'ALTER TABLE "orders" ALTER COLUMN "email" SET DEFAULT \'\';',
          'ALTER TABLE "orders" ALTER COLUMN "email" SET NOT NULL;',
          'ALTER TABLE "refunds" DROP CONSTRAINT "refunds_method_check";',
          'ALTER TABLE "refunds" ADD CONSTRAINT "refunds_method_check" CHECK ("method" in (\'card\', \'iban\'));',
          'CREATE INDEX "orders_channel_idx" ON "orders" USING btree ("channel");',
          '-- A comment that mentions DROP TABLE is not a statement.',
        ].join(breakpoint),
      ),
    ).toEqual([]);
  });
});
