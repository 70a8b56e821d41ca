import { createHash } from 'node:crypto';

/*
 * The payment journal's entries and their canonical form (docs/payment-journal.md, « The canonical
 * form »). The database's trigger (migration payment_journal, `payment_journal_canonical`) writes
 * the same bytes: an outside verifier needs only this definition and SHA-256.
 *
 * An entry's hash is the lowercase hexadecimal SHA-256 of the UTF-8 bytes of the JSON array
 *   ["soovenirs-payment-journal/1", seq, recordedAt, kind, orderNumber, documentNumber, amountCents,
 *    method, provider, actor, demo, sourceTable, sourceId, previousHash]
 * written without any space; strings escaped as JSON.stringify does (« " », « \ » and control
 * characters only), recordedAt in UTC to the millisecond (`2026-12-02T09:15:03.120Z`), null for an
 * absent document or provider, integers in decimal, demo `true` or `false`. The first entry's
 * previous hash is 64 zeros.
 */

export const ENTRY_FORMAT = 'soovenirs-payment-journal/1';
export const GENESIS_HASH = '0'.repeat(64);

/** In the order the closures list them. */
export const JOURNAL_KINDS = ['payment_received', 'payment_validated', 'payment_rejected', 'refund'] as const;
export type JournalKind = (typeof JOURNAL_KINDS)[number];

/** What the money did to the shop's perpetual total: received (+1), given back (-1), nothing (0). */
export const KIND_SIGN: Record<JournalKind, 1 | -1 | 0> = {
  payment_received: 1,
  payment_validated: 1,
  payment_rejected: 0,
  refund: -1,
};

export const KIND_LABELS: Record<JournalKind, string> = {
  payment_received: 'Paiement reçu',
  payment_validated: 'Paiement validé',
  payment_rejected: 'Paiement rejeté',
  refund: 'Remboursement',
};

export interface JournalEntry {
  seq: number;
  recordedAt: Date;
  kind: string;
  orderNumber: string;
  documentNumber: string | null;
  amountCents: number;
  method: string;
  provider: string | null;
  actor: string;
  demo: boolean;
  sourceTable: string;
  sourceId: string;
  previousHash: string;
  hash: string;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The canonical serialisation of an entry (everything but its own hash). */
export function canonicalEntry(entry: Omit<JournalEntry, 'hash'>): string {
  return JSON.stringify([
    ENTRY_FORMAT,
    entry.seq,
    entry.recordedAt.toISOString(),
    entry.kind,
    entry.orderNumber,
    entry.documentNumber,
    entry.amountCents,
    entry.method,
    entry.provider,
    entry.actor,
    entry.demo,
    entry.sourceTable,
    entry.sourceId,
    entry.previousHash,
  ]);
}

export function entryHash(entry: Omit<JournalEntry, 'hash'>): string {
  return sha256Hex(canonicalEntry(entry));
}

/** An entry as JSON (an archive's line): the time as its ISO string. */
export function entryToJson(entry: JournalEntry): Record<string, unknown> {
  return { ...entry, recordedAt: entry.recordedAt.toISOString() };
}
