import { expect } from 'vitest';
import { decodeLatin9, FEC_COLUMNS } from '~/domain/accounting/fec';

/*
 * A FEC as the tests read it (docs/accounting-exports.md): ISO 8859-15, one record per line ended
 * by CR LF, 18 tab-separated fields, amounts with a decimal comma. One home for the files that check
 * a FEC the shop wrote: the export's own tests, the demo data's and the back office's download.
 */

const DEBIT = FEC_COLUMNS.indexOf('Debit');
const CREDIT = FEC_COLUMNS.indexOf('Credit');
const ENTRY = FEC_COLUMNS.indexOf('EcritureNum');

/** The file's header line and its records, each split into its fields; the last line ends with CR LF. */
export function readFec(bytes: Uint8Array): { text: string; header: string; rows: string[][] } {
  const text = decodeLatin9(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  const [header = '', ...lines] = text.slice(0, -2).split('\r\n');
  return { text, header, rows: lines.map((line) => line.split('\t')) };
}

/** `1234,56` in cents. */
function cents(amount: string | undefined): number {
  return Number((amount ?? '').replace(',', ''));
}

/** Each entry's debits minus its credits (by EcritureNum), and the file's debits and credits, in cents. */
export function fecBalances(rows: readonly string[][]): {
  perEntry: Map<string, number>;
  debits: number;
  credits: number;
} {
  const perEntry = new Map<string, number>();
  let debits = 0;
  let credits = 0;
  for (const fields of rows) {
    const [debit, credit] = [cents(fields[DEBIT]), cents(fields[CREDIT])];
    debits += debit;
    credits += credit;
    const entry = fields[ENTRY] as string;
    perEntry.set(entry, (perEntry.get(entry) ?? 0) + debit - credit);
  }
  return { perEntry, debits, credits };
}
