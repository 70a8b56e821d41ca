import { csvField, csvMoney } from '../admin/exports';
import { ACCOUNT_LABELS, type AccountingSettings, JOURNAL_LABELS } from './accounts';
import type { AccountingEntry } from './entries';

/*
 * The journal in accounting entries as a spreadsheet (French Excel's CSV, like the Rapports tab's
 * exports: UTF-8 with a byte-order mark, `;`, decimal comma, dates 30/11/2026): the same entries and
 * numbers as the FEC, for the accountant who imports or reads them rather than archives them.
 */

export const JOURNAL_CSV_HEADERS = [
  'Journal',
  'Libellé du journal',
  'N° écriture',
  'Date',
  'Compte',
  'Libellé du compte',
  'Pièce',
  'Libellé',
  'Débit',
  'Crédit',
] as const;

function frenchDay(day: string): string {
  const [year, month, date] = day.split('-');
  return `${date}/${month}/${year}`;
}

export function journalCsvHeader(): string {
  return `\uFEFF${JOURNAL_CSV_HEADERS.join(';')}\r\n`;
}

export function journalCsvLines(entry: AccountingEntry, number: number, settings: AccountingSettings): string {
  return entry.lines
    .map(
      (line) =>
        `${[
          csvField(settings[entry.journal]),
          csvField(JOURNAL_LABELS[entry.journal]),
          String(number),
          frenchDay(entry.date),
          csvField(settings[line.account]),
          csvField(ACCOUNT_LABELS[line.account]),
          csvField(entry.pieceRef),
          csvField(entry.label),
          csvMoney(line.debitCents),
          csvMoney(line.creditCents),
        ].join(';')}\r\n`,
    )
    .join('');
}
