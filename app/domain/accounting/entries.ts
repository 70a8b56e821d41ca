import { type DocumentSnapshot, lineCategory } from '../invoices/snapshot';
import type { AccountKey, JournalKey } from './accounts';

/*
 * The shop's documents and money movements as accounting entries (docs/accounting-exports.md), for
 * the FEC and the journal in entries. Pure: the caller reads the documents, this decides the
 * accounts and amounts. Every entry balances to the cent by construction: the customer's side is
 * the document's total including VAT, the VAT its VAT, and the revenue side its total excluding VAT
 * (the lines' shares, any rounding gap given to the largest revenue line).
 *
 * - An invoice: debit Clients (TTC); credit Prestations de services / Ventes de marchandises per
 *   line category (HT); a promotion code's negative line debits Rabais accordés (HT); credit TVA
 *   collectée. A credit note: the same, reversed.
 * - A gift card is a prepayment (decision 050, with decision 037's VAT at the sale): its sale
 *   credits « Clients - avances reçues » (HT) and its VAT; the order it pays later debits that
 *   account by the card line's excluding-VAT share and credits the services at full price, so that
 *   the revenue is recognised when the service is sold and the VAT is not counted twice.
 * - A receipt (the payment of an invoice, issued paid): debit the bank, cheques or the card
 *   provider's account, credit Clients. A refund: the reverse.
 */

export interface EntryLine {
  account: AccountKey;
  debitCents: number;
  creditCents: number;
}

export interface AccountingEntry {
  journal: JournalKey;
  /** The entry's date, YYYY-MM-DD (the shop's day). */
  date: string;
  /** The document it comes from (invoice or credit note number). */
  pieceRef: string;
  /** The document's date, YYYY-MM-DD. */
  pieceDate: string;
  label: string;
  lines: EntryLine[];
}

/** What the entry of an invoice or a credit note reads of it. */
export interface AccountingDocument {
  kind: 'invoice' | 'credit_note';
  number: string;
  /** The document's day, YYYY-MM-DD. */
  day: string;
  /** Who bought: the label of the entry. */
  customer: string;
  snapshot: Pick<DocumentSnapshot, 'lines' | 'totalCents' | 'vatCents' | 'totalExcludingVatCents' | 'giftCardCents'>;
  /** The document of a gift card's sale (decision 037): its lines are a prepayment, not revenue. */
  giftCardSale: boolean;
}

/** Money received for an invoice, or given back with a credit note. */
export interface MoneyMovement {
  kind: 'payment' | 'refund';
  /** The document it pays or refunds. */
  number: string;
  /** The day the money moved, YYYY-MM-DD. */
  day: string;
  /** The document's day. */
  pieceDay: string;
  customer: string;
  amountCents: number;
  /** Where the money is: bank, cheques to cash, a card provider. */
  account: AccountKey;
}

const DOCUMENT_WORDS = { invoice: 'Facture', credit_note: 'Avoir' } as const;

/** Revenue accounts, in the order an entry lists them. */
const LINE_ORDER: readonly AccountKey[] = ['customers', 'goods', 'services', 'discounts', 'giftCards', 'vatCollected'];

function linesOf(signedCredits: Map<AccountKey, number>): EntryLine[] {
  return [...signedCredits.entries()]
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => LINE_ORDER.indexOf(a) - LINE_ORDER.indexOf(b))
    .map(([account, amount]) =>
      amount > 0 ? { account, debitCents: 0, creditCents: amount } : { account, debitCents: -amount, creditCents: 0 },
    );
}

/** The index of the gift card's negative line (the last line of its amount), or -1. */
function giftCardLineIndex(snapshot: AccountingDocument['snapshot']): number {
  const card = snapshot.giftCardCents ?? 0;
  if (card <= 0) return -1;
  for (let i = snapshot.lines.length - 1; i >= 0; i--) {
    if (snapshot.lines[i]?.totalCents === -card) return i;
  }
  return -1;
}

/** The entry of an invoice or a credit note in the sales journal. */
export function documentEntry(document: AccountingDocument): AccountingEntry {
  const { snapshot } = document;
  const sign = document.kind === 'invoice' ? 1 : -1;
  // Signed credits: positive is a credit, negative a debit (for an invoice; reversed for a credit note).
  const credits = new Map<AccountKey, number>();
  const add = (account: AccountKey, cents: number) => credits.set(account, (credits.get(account) ?? 0) + cents);
  add('customers', -snapshot.totalCents);
  add('vatCollected', snapshot.vatCents);
  const cardIndex = giftCardLineIndex(snapshot);
  let linesExcludingVat = 0;
  const revenue = new Map<AccountKey, number>();
  snapshot.lines.forEach((line, index) => {
    const cents = line.totalExcludingVatCents;
    linesExcludingVat += cents;
    let account: AccountKey;
    if (index === cardIndex || (document.giftCardSale && line.totalCents > 0)) account = 'giftCards';
    else if (line.totalCents < 0) account = 'discounts';
    else account = lineCategory(line) === 'goods' ? 'goods' : 'services';
    add(account, cents);
    if (cents > 0) revenue.set(account, (revenue.get(account) ?? 0) + cents);
  });
  // Lines whose shares do not add up to the total (a hand-made document): the gap goes to the
  // largest credit, so that the entry still says what the document's totals say.
  const gap = snapshot.totalExcludingVatCents - linesExcludingVat;
  if (gap !== 0) {
    const largest = [...revenue.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'services';
    add(largest, gap);
  }
  if (sign < 0) for (const [account, cents] of credits) credits.set(account, -cents);
  const word = DOCUMENT_WORDS[document.kind];
  return {
    journal: 'salesJournal',
    date: document.day,
    pieceRef: document.number,
    pieceDate: document.day,
    label: `${word} ${document.number} ${document.customer}`.trim(),
    lines: linesOf(credits),
  };
}

/** The entry of money received (payment) or given back (refund); null for nothing moved. */
export function movementEntry(movement: MoneyMovement): AccountingEntry | null {
  if (movement.amountCents === 0) return null;
  const amount = movement.kind === 'payment' ? movement.amountCents : -movement.amountCents;
  const credits = new Map<AccountKey, number>([
    ['customers', amount],
    [movement.account, -amount],
  ]);
  const word = movement.kind === 'payment' ? 'Encaissement' : 'Remboursement';
  const lines = linesOf(credits);
  // The money's account first, as bank journals read.
  lines.sort((a, b) => Number(a.account === 'customers') - Number(b.account === 'customers'));
  return {
    journal: 'receiptsJournal',
    date: movement.day,
    pieceRef: movement.number,
    pieceDate: movement.pieceDay,
    label: `${word} ${movement.number} ${movement.customer}`.trim(),
    lines,
  };
}

/** Where a payment lands: the card provider's account, the bank for a transfer, cheques to cash. */
export function paymentAccount(method: string | null | undefined, provider: string | null | undefined): AccountKey {
  if (method === 'cheque') return 'cheques';
  if (method === 'transfer') return 'bank';
  if (provider === 'stripe') return 'stripe';
  if (provider === 'monetico') return 'monetico';
  return 'bank';
}

/** Where a refund leaves from: back through the card provider, else from the bank (transfer or cheque). */
export function refundAccount(method: string, provider: string | null | undefined): AccountKey {
  if (method === 'gateway' && (provider === 'stripe' || provider === 'monetico')) return provider;
  return 'bank';
}

/** Debits and credits of an entry; it balances when they are equal. */
export function entryTotals(entry: Pick<AccountingEntry, 'lines'>): { debitCents: number; creditCents: number } {
  let debitCents = 0;
  let creditCents = 0;
  for (const line of entry.lines) {
    debitCents += line.debitCents;
    creditCents += line.creditCents;
  }
  return { debitCents, creditCents };
}
