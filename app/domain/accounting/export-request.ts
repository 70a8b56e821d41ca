import { type AccountingPeriod, parseAccountingPeriod } from './period';

/*
 * What the back office's download form asks (GET /admin/export-comptable): the file (`fichier`:
 * the FEC, the journal in entries as CSV, or the Chorus Pro ZIP) and the period (`periode`: a
 * month, a year or two dates). Pure.
 */

export const ACCOUNTING_FILES = ['fec', 'ecritures', 'chorus'] as const;
export type AccountingFile = (typeof ACCOUNTING_FILES)[number];

export const ACCOUNTING_FILE_LABELS: Readonly<Record<AccountingFile, string>> = {
  fec: 'FEC (fichier des écritures comptables)',
  ecritures: 'Journal en écritures (CSV pour tableur ou logiciel comptable)',
  chorus: 'Factures Chorus Pro (ZIP des PDF et liste)',
};

export type AccountingExportRequest =
  | { ok: true; file: AccountingFile; period: AccountingPeriod }
  | { ok: false; error: string };

export function parseAccountingExportRequest(search: URLSearchParams): AccountingExportRequest {
  const file = search.get('fichier');
  if (!(ACCOUNTING_FILES as readonly string[]).includes(file ?? '')) {
    return { ok: false, error: 'Choisissez le fichier à télécharger.' };
  }
  const kind = search.get('periode') ?? 'mois';
  const parsed = parseAccountingPeriod(
    kind === 'annee'
      ? { year: search.get('annee') ?? '' }
      : kind === 'dates'
        ? { from: search.get('du'), to: search.get('au') }
        : { month: search.get('mois') ?? '' },
  );
  if (!parsed.ok) return parsed;
  return { ok: true, file: file as AccountingFile, period: parsed.period };
}

/**
 * Why an export produced nothing: one of the period's documents cannot go in the file (its content
 * is in no shape the shop writes, or an amount the format refuses). Never left out silently.
 */
export function unwritableDocumentMessage(documentNumber: string): string {
  return `Le document ${documentNumber} ne peut pas être écrit dans l’export\u00a0: rien n’a été produit, pour qu’aucune écriture ne manque. Signalez-le à l’équipe technique avec ce numéro.`;
}
