import type { AuditKind } from './kinds';

/*
 * How long an audit entry is kept (docs/decisions/017-audit-log.md). Entries about money are
 * accounting records: the Code de commerce (L123-22) keeps accounting documents and their
 * supporting records 10 years, so refunds, payment validations and rejections, cancellations and
 * withdrawals (which refund or keep money), reception supplements (invoiced), price changes (what
 * invoices were computed from) and exports (the sales journal, orders with their amounts) are kept
 * 10 years. Everything else (workshop stages, settings, staff, files, e-mails) 2 years: long
 * enough to answer « who did this? », short enough to keep little personal data (RGPD, minimisation).
 * The database refuses to delete an entry before its keep_until (migration 0010).
 */

export const ACCOUNTING_RETENTION_YEARS = 10;
export const DEFAULT_RETENTION_YEARS = 2;

const ACCOUNTING_KINDS: ReadonlySet<AuditKind> = new Set<AuditKind>([
  'order.refund',
  'order.cancel',
  'order.withdrawal',
  'order.supplement',
  // A card is money owed: its refund, and an extension (how long the money stays owed, and when
  // what is left ceases to be), are records of that debt.
  'gift_card.refund',
  'gift_card.extend',
  // A code's terms price every order placed with it.
  'promotion.create',
  'payment.validate',
  'payment.reject',
  'price.change',
  // The accounts every accounting export was written with.
  'settings.accounting',
  'export',
  // What was declared to the tax administration, and when.
  'ereporting.send',
  'ereporting.deposit',
]);

export function isAccountingKind(kind: AuditKind): boolean {
  return ACCOUNTING_KINDS.has(kind);
}

export function retentionYears(kind: AuditKind): number {
  return isAccountingKind(kind) ? ACCOUNTING_RETENTION_YEARS : DEFAULT_RETENTION_YEARS;
}

/** The last day an entry written at `at` must be kept, as an ISO date (`2036-11-21`, UTC day). */
export function keepUntil(kind: AuditKind, at: Date): string {
  const end = new Date(at.getTime());
  end.setUTCFullYear(end.getUTCFullYear() + retentionYears(kind));
  return end.toISOString().slice(0, 10);
}
