/*
 * The accounts and journal codes the accounting exports write (the FEC, the journal in entries):
 * one setting, defaults from the Plan comptable général, every account and code editable in the
 * back office (« Comptes comptables ») so that the accountant's own chart is used. Pure: the form's
 * check runs on the server (and would in the browser).
 *
 * Customers are one collective account (411000), without auxiliary accounts: the shop's buyers are
 * consumers who order once or twice, every invoice is paid when it is issued (« acquittée »), and
 * each document's number is in the entries' PieceRef, which is what matches a sale with its
 * receipt (docs/decisions/050-fec-and-accounting-entries.md).
 */

export const ACCOUNT_KEYS = [
  'customers',
  'services',
  'goods',
  'discounts',
  'vatCollected',
  'giftCards',
  'bank',
  'cheques',
  'stripe',
  'monetico',
] as const;
export type AccountKey = (typeof ACCOUNT_KEYS)[number];

export const JOURNAL_KEYS = ['salesJournal', 'receiptsJournal'] as const;
export type JournalKey = (typeof JOURNAL_KEYS)[number];

export type AccountingSettings = Readonly<Record<AccountKey | JournalKey, string>>;

export const DEFAULT_ACCOUNTING_SETTINGS: AccountingSettings = {
  customers: '411000',
  services: '706000',
  goods: '707000',
  discounts: '709000',
  vatCollected: '445710',
  giftCards: '419100',
  bank: '512000',
  cheques: '511200',
  stripe: '467100',
  monetico: '511500',
  salesJournal: 'VE',
  receiptsJournal: 'BQ',
};

/** The form's labels, which are also the accounts' names in the exports (CompteLib). */
export const ACCOUNT_LABELS: Readonly<Record<AccountKey, string>> = {
  customers: 'Clients',
  services: 'Prestations de services',
  goods: 'Ventes de marchandises',
  discounts: 'Rabais, remises et ristournes accordés',
  vatCollected: 'TVA collectée',
  giftCards: 'Clients - avances reçues (cartes cadeaux)',
  bank: 'Banque',
  cheques: 'Chèques à encaisser',
  stripe: 'Stripe',
  monetico: 'Cartes bancaires à l’encaissement (Monetico)',
};

export const JOURNAL_LABELS: Readonly<Record<JournalKey, string>> = {
  salesJournal: 'Journal des ventes',
  receiptsJournal: 'Journal de banque',
};

/** What the form says under each field: what the account receives. */
export const ACCOUNT_HINTS: Readonly<Record<AccountKey | JournalKey, string>> = {
  customers: 'Débité du TTC de chaque facture, crédité de chaque encaissement.',
  services: 'Numérisation, restauration, livraison numérique, frais de port, assurance, conservation.',
  goods: 'Clés USB et DVD remis au client (copies et livraisons sur support).',
  discounts: 'Codes promo déduits sur la facture.',
  vatCollected: 'TVA à 20\u00a0% de chaque facture et avoir.',
  giftCards: 'Cartes cadeaux vendues et pas encore utilisées (TVA déclarée à la vente).',
  bank: 'Virements reçus, remboursements par virement ou chèque.',
  cheques: 'Chèques reçus en attente de remise en banque.',
  stripe: 'Paiements par carte encaissés par Stripe, avant leur virement.',
  monetico: 'Paiements par carte encaissés par Monetico, avant leur crédit en banque.',
  salesJournal: 'Factures et avoirs.',
  receiptsJournal: 'Encaissements et remboursements.',
};

/** A general-ledger account: digits only, the first three those of the Plan comptable général's classes. */
const ACCOUNT_PATTERN = /^[1-9]\d{2,11}$/;
/** A journal code: what accounting software import (letters and digits, short). */
const JOURNAL_PATTERN = /^[A-Z0-9]{1,6}$/;

export const ACCOUNTING_MESSAGES = {
  account: 'Un numéro de compte s’écrit en chiffres seulement (3 à 12, sans espace), sans commencer par 0.',
  journal: 'Un code journal s’écrit en majuscules et chiffres, 6 caractères au plus (ex.\u00a0: VE).',
  sameJournal: 'Les ventes et la banque demandent deux journaux différents.',
  saved: 'Comptes enregistrés\u00a0: les prochains exports les utilisent.',
} as const;

export type AccountingFieldErrors = Partial<Record<AccountKey | JournalKey, string>>;

export type ParsedAccountingSettings =
  | { ok: true; settings: AccountingSettings }
  | { ok: false; fieldErrors: AccountingFieldErrors; values: Record<AccountKey | JournalKey, string> };

/** The form's values checked: spaces inside a number are dropped (« 411 000 »), codes upper-cased. */
export function parseAccountingSettings(input: Readonly<Record<string, unknown>>): ParsedAccountingSettings {
  const values = {} as Record<AccountKey | JournalKey, string>;
  const fieldErrors: AccountingFieldErrors = {};
  for (const key of ACCOUNT_KEYS) {
    const value = String(input[key] ?? '').replace(/\s+/g, '');
    values[key] = value;
    if (!ACCOUNT_PATTERN.test(value)) fieldErrors[key] = ACCOUNTING_MESSAGES.account;
  }
  for (const key of JOURNAL_KEYS) {
    const value = String(input[key] ?? '')
      .trim()
      .toUpperCase();
    values[key] = value;
    if (!JOURNAL_PATTERN.test(value)) fieldErrors[key] = ACCOUNTING_MESSAGES.journal;
  }
  if (!fieldErrors.receiptsJournal && values.salesJournal === values.receiptsJournal) {
    fieldErrors.receiptsJournal = ACCOUNTING_MESSAGES.sameJournal;
  }
  if (Object.keys(fieldErrors).length > 0) return { ok: false, fieldErrors, values };
  return { ok: true, settings: values };
}

/** A stored value read back: the defaults for anything missing or no longer valid. */
export function accountingSettingsOf(stored: unknown): AccountingSettings {
  if (!stored || typeof stored !== 'object') return DEFAULT_ACCOUNTING_SETTINGS;
  const merged = { ...DEFAULT_ACCOUNTING_SETTINGS, ...(stored as Record<string, unknown>) };
  const parsed = parseAccountingSettings(merged);
  return parsed.ok ? parsed.settings : DEFAULT_ACCOUNTING_SETTINGS;
}
