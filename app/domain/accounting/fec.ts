import { ACCOUNT_LABELS, type AccountingSettings, JOURNAL_LABELS } from './accounts';
import type { AccountingEntry } from './entries';

/*
 * The Fichier des écritures comptables (LPF art. A47 A-1; BOFiP BOI-CF-IOR-60-40-20): a flat file,
 * one line per accounting line, the 18 fields of a company under the BIC/IS regime in their order,
 * separated by a tab, a first line naming the fields, dates AAAAMMJJ, amounts with a decimal
 * comma. Encoded in ISO 8859-15 (decision 050): one of the encodings the text names, the one that
 * writes French (accents, €, œ). Pure: the server streams these lines.
 */

export const FEC_COLUMNS = [
  'JournalCode',
  'JournalLib',
  'EcritureNum',
  'EcritureDate',
  'CompteNum',
  'CompteLib',
  'CompAuxNum',
  'CompAuxLib',
  'PieceRef',
  'PieceDate',
  'EcritureLib',
  'Debit',
  'Credit',
  'EcritureLet',
  'DateLet',
  'ValidDate',
  'Montantdevise',
  'Idevise',
] as const;

export const FEC_SEPARATOR = '\t';
/** Records end with « retour chariot et fin de ligne », what the DGFiP's tools and spreadsheets read. */
export const FEC_LINE_END = '\r\n';

/** `2026-11-30` -> `20261130`. */
export function fecDate(day: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new RangeError(`not a day: ${day}`);
  return day.replaceAll('-', '');
}

/** `123456` cents -> `1234,56`: a decimal comma, no thousands separator, never negative here. */
export function fecAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount for the FEC: ${cents}`);
  return `${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** A field's text: no tab or line break inside (they separate fields and records), spaces collapsed. */
export function fecText(value: string): string {
  return value
    .replace(/[\t\r\n\u00a0\u202f\u2009\u2007]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}

/** `<SIREN>FEC<AAAAMMJJ>.txt`, the closing day of the period (A47 A-1). */
export function fecFileName(siren: string, closingDay: string): string {
  const digits = siren.replace(/\D/g, '');
  if (digits.length !== 9) throw new RangeError(`not a SIREN: ${siren}`);
  return `${digits}FEC${fecDate(closingDay)}.txt`;
}

export function fecHeader(): string {
  return FEC_COLUMNS.join(FEC_SEPARATOR) + FEC_LINE_END;
}

/**
 * The lines of one entry, numbered `number` (a continuous sequence over the file). The entry is
 * validated when its document is issued: ValidDate is its date. No auxiliary account, no lettering,
 * no foreign currency (the shop sells in euros).
 */
export function fecEntryLines(entry: AccountingEntry, number: number, settings: AccountingSettings): string {
  const journalCode = settings[entry.journal];
  const journalLabel = JOURNAL_LABELS[entry.journal];
  return entry.lines
    .map((line) => {
      const fields: Record<(typeof FEC_COLUMNS)[number], string> = {
        JournalCode: journalCode,
        JournalLib: journalLabel,
        EcritureNum: String(number),
        EcritureDate: fecDate(entry.date),
        CompteNum: settings[line.account],
        CompteLib: ACCOUNT_LABELS[line.account],
        CompAuxNum: '',
        CompAuxLib: '',
        PieceRef: entry.pieceRef,
        PieceDate: fecDate(entry.pieceDate),
        EcritureLib: entry.label,
        Debit: fecAmount(line.debitCents),
        Credit: fecAmount(line.creditCents),
        EcritureLet: '',
        DateLet: '',
        ValidDate: fecDate(entry.date),
        Montantdevise: '',
        Idevise: '',
      };
      return FEC_COLUMNS.map((column) => fecText(fields[column])).join(FEC_SEPARATOR) + FEC_LINE_END;
    })
    .join('');
}

/** The eight characters where ISO 8859-15 differs from ISO 8859-1. */
const LATIN9_SPECIALS: Readonly<Record<string, number>> = {
  '€': 0xa4,
  Š: 0xa6,
  š: 0xa8,
  Ž: 0xb4,
  ž: 0xb8,
  Œ: 0xbc,
  œ: 0xbd,
  Ÿ: 0xbe,
};
/** The Latin-1 characters those eight replaced: not in ISO 8859-15. */
const NOT_LATIN9 = new Set([0xa4, 0xa6, 0xa8, 0xb4, 0xb8, 0xbc, 0xbd, 0xbe]);
/** Typography the shop writes that ISO 8859-15 lacks, and what stands for it. */
const TRANSLITERATIONS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u2022': '*',
  '\u202f': ' ',
  '\u2009': ' ',
};

/**
 * Text as ISO 8859-15 bytes. A character outside it becomes its transliteration (’ -> '), else its
 * letter without the accent (ă -> a), else `?`: the file never holds bytes of another encoding.
 */
export function encodeLatin9(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    const special = LATIN9_SPECIALS[char];
    if (special !== undefined) {
      bytes.push(special);
      continue;
    }
    const code = char.codePointAt(0) as number;
    if (code < 0x100 && !NOT_LATIN9.has(code)) {
      bytes.push(code);
      continue;
    }
    const replacement =
      TRANSLITERATIONS[char] ??
      char
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^\u0020-\u007e]/g, '?');
    for (const c of replacement) bytes.push(c.codePointAt(0) as number);
  }
  return Uint8Array.from(bytes);
}

/** ISO 8859-15 bytes read back as text (the tests, and whoever checks a file). */
export function decodeLatin9(bytes: Uint8Array): string {
  const reverse = new Map(Object.entries(LATIN9_SPECIALS).map(([char, code]) => [code, char]));
  let text = '';
  for (const byte of bytes) text += reverse.get(byte) ?? String.fromCharCode(byte);
  return text;
}
