import { desc, eq, sql } from 'drizzle-orm';
import { changedFields } from '~/domain/audit/changes';
import type { PriceListDocument } from '~/domain/pricing/default-price-list';
import { type PriceListIssue, parsePriceListDocument } from '~/domain/pricing/price-list-schema';
import { recordAudit } from '../audit/audit.server';
import type { Executor } from '../config/config-options.server';
import { type Database, db } from '../db/client.server';
import { priceLists } from '../db/schema';
import { bumpPageVersion } from '../page-versions.server';

/*
 * The shop's price lists (docs/pricing.md): versioned documents, exactly one active. Orders and
 * quotes record the version they were priced with. Nothing here is cached: a list published by the
 * back office prices the very next request, and open pages learn of it through the version marker.
 */

export interface ActivePriceList {
  id: string;
  version: number;
  data: PriceListDocument;
  createdAt: Date;
}

/** What pages compare to know whether prices changed: cheap to read, no document. */
export interface PriceListMarker {
  id: string;
  version: number;
  lastUpdated: string;
}

export class InvalidStoredPriceListError extends Error {
  constructor(version: number, issues: PriceListIssue[]) {
    super(
      `price_lists version ${version} is not a valid price list: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    );
    this.name = 'InvalidStoredPriceListError';
  }
}

/** A stored document, checked: a list edited by hand into nonsense stops here, not in a price. */
function checked(row: { version: number; data: unknown }): PriceListDocument {
  const parsed = parsePriceListDocument(row.data);
  if (!parsed.ok) throw new InvalidStoredPriceListError(row.version, parsed.issues);
  return parsed.document;
}

const columns = {
  id: priceLists.id,
  version: priceLists.version,
  data: priceLists.data,
  createdAt: priceLists.createdAt,
};

/** The price list every page and every order is priced with now. */
export async function getActivePriceList(executor: Executor = db()): Promise<ActivePriceList> {
  const [row] = await executor.select(columns).from(priceLists).where(eq(priceLists.isActive, true)).limit(1);
  if (!row) throw new Error('No active price list: the server seeds one at start (ensureDefaultPriceList).');
  return { ...row, data: checked(row) };
}

/** A price list by id, active or not (the version a quote or an order was priced with). */
export async function getPriceListById(id: string, executor: Executor = db()): Promise<ActivePriceList | null> {
  const [row] = await executor.select(columns).from(priceLists).where(eq(priceLists.id, id)).limit(1);
  return row ? { ...row, data: checked(row) } : null;
}

/** The active list's version and date, for live updates (GET /api/price-list, page loaders). */
export async function getActivePriceListMarker(executor: Executor = db()): Promise<PriceListMarker> {
  const [row] = await executor
    .select({
      id: priceLists.id,
      version: priceLists.version,
      lastUpdated: sql<string>`${priceLists.data}->>'lastUpdated'`,
    })
    .from(priceLists)
    .where(eq(priceLists.isActive, true))
    .limit(1);
  if (!row) throw new Error('No active price list: the server seeds one at start (ensureDefaultPriceList).');
  return row;
}

export class InvalidPriceListError extends Error {
  readonly issues: PriceListIssue[];
  constructor(issues: PriceListIssue[]) {
    super(`Grille tarifaire invalide : ${issues.map((i) => `${i.path || '(document)'} : ${i.message}`).join(' ; ')}`);
    this.name = 'InvalidPriceListError';
    this.issues = issues;
  }
}

/**
 * The list changed since the person reviewed it: another admin published meanwhile. Their
 * confirmed summary no longer describes what would be published, so nothing is written.
 */
export class StalePriceListError extends Error {
  constructor(expected: number, active: number | null) {
    super(`price list version ${expected} was reviewed, version ${active ?? 'none'} is active`);
    this.name = 'StalePriceListError';
  }
}

/** Serialises publications, so that two admins publishing at once get versions n+1 and n+2. */
const PUBLISH_LOCK_KEY = 0x50_52_49_43; // "PRIC"

export interface PublishedPriceList {
  id: string;
  version: number;
  /** The version it replaced, if any. */
  previousVersion: number | null;
  document: PriceListDocument;
}

/**
 * Publishes a new price list (the back office's Tarifs tab): checks the document, stores it as
 * version n+1, makes it the active one and the previous one inactive, in one transaction. Its
 * `lastUpdated` is the moment of publication. Throws InvalidPriceListError (French messages) when
 * the document is not a complete, valid price list; nothing is written then. With `expectedVersion`
 * (the version the back office's summary was computed against), throws StalePriceListError when
 * another version became active meanwhile; checked under the lock, so two publications cannot
 * both pass it.
 */
export async function publishPriceList(
  document: unknown,
  userId: string | null,
  database: Database = db(),
  options: { expectedVersion?: number } = {},
): Promise<PublishedPriceList> {
  const parsed = parsePriceListDocument(
    typeof document === 'object' && document !== null
      ? { ...document, lastUpdated: new Date().toISOString() }
      : document,
  );
  if (!parsed.ok) throw new InvalidPriceListError(parsed.issues);

  const published = await database.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${PUBLISH_LOCK_KEY})`);
    const [latest] = await tx
      .select({ version: priceLists.version })
      .from(priceLists)
      .orderBy(desc(priceLists.version))
      .limit(1);
    const [previous] = await tx
      .select({ data: priceLists.data })
      .from(priceLists)
      .where(eq(priceLists.isActive, true))
      .limit(1);
    const [active] = await tx
      .update(priceLists)
      .set({ isActive: false })
      .where(eq(priceLists.isActive, true))
      .returning({ version: priceLists.version });
    if (options.expectedVersion !== undefined && active?.version !== options.expectedVersion) {
      // Throwing rolls back the deactivation above.
      throw new StalePriceListError(options.expectedVersion, active?.version ?? null);
    }
    const version = (latest?.version ?? 0) + 1;
    const [row] = await tx
      .insert(priceLists)
      .values({ version, data: parsed.document, isActive: true, createdBy: userId })
      .returning({ id: priceLists.id });
    if (!row) throw new Error('price_lists: the insert returned no row');
    // A staff member's change goes to the audit log (the defaults published at start have no author).
    const change = userId ? changedFields(previous?.data ?? null, parsed.document, { ignore: ['lastUpdated'] }) : null;
    if (userId && change) {
      await recordAudit(tx, {
        actor: userId,
        kind: 'price.change',
        subject: 'price_list',
        subjectLabel: `Tarifs, version ${version}`,
        ...change,
      });
    }
    return { id: row.id, version, previousVersion: active?.version ?? null, document: parsed.document };
  });
  // After the commit: cached public pages showing the previous prices are no longer served, here
  // and (awaited, so that « appliquée immédiatement » holds) on every other instance.
  await bumpPageVersion('priceList');
  return published;
}
