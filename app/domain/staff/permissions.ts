/*
 * Who may do what in the back office (docs/decisions/016-staff-roles.md): one table of
 * capabilities per staff role, read by the server's guard (requireStaff) in every admin loader and
 * action, and by the tabs to show only what the role may open. Pure: no I/O.
 */

export const STAFF_ROLES = ['admin', 'atelier', 'comptabilite'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_ROLE_LABELS: Readonly<Record<StaffRole, string>> = {
  admin: 'Administrateur',
  atelier: 'Atelier',
  comptabilite: 'Comptabilité',
};

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);
}

export const CAPABILITIES = [
  /** The dashboard's frame: header, statistics, search, notifications. */
  'dashboard',
  /** The orders' list and dialog, read only. */
  'orders.read',
  /** Status, workshop stage and internal notes of an order. */
  'orders.write',
  /** The Clients tab. */
  'customers',
  /** The workshop board and its job sheets. */
  'workshop',
  /** « Colis reçu »: the reception form and its photos. */
  'reception',
  /** The digitised files and their delivery. */
  'files',
  /** Labels and parcels sent back (Coliship). */
  'shipping',
  /** The price list (Tarifs). */
  'prices',
  /** Validating or rejecting bank transfers and cheques. */
  'payments.validate',
  /** Refunds, credit notes and the settlement of a withdrawal. */
  'refunds',
  /** The Comptabilité tab: invoices and credit notes. */
  'accounting',
  /**
   * « Cartes cadeaux »: the cards, their ledgers, sending a card again and extending it (cancelling
   * one refunds money: that intent needs `refunds` too).
   */
  'giftcards',
  /**
   * « Codes promo »: the codes with their uses and revenue, creating a code, pausing and resuming
   * it (a code's terms never change once created).
   */
  'promotions',
  /** CSV and accounting exports. */
  'exports',
  /** The Rapports tab (figures of the business). */
  'reports',
  /** Settings: payment gateways, e-mail, Coliship, delivered files, and the e-mails' log. */
  'settings',
  /** The Tests tab (checks of the platform). */
  'tests',
  /** « Équipe »: staff accounts, invitations, roles. */
  'team',
  /** « Journal »: the audit log. */
  'journal',
] as const;
export type Capability = (typeof CAPABILITIES)[number];

const EVERYTHING: readonly Capability[] = CAPABILITIES;

export const ROLE_CAPABILITIES: Readonly<Record<StaffRole, readonly Capability[]>> = {
  admin: EVERYTHING,
  // The workshop: orders from reception to shipping; no money, no settings.
  atelier: ['dashboard', 'orders.read', 'orders.write', 'customers', 'workshop', 'reception', 'files', 'shipping'],
  // The accountant: orders read only, and everything about money (gift cards are money owed).
  // Promotion codes are granted as gift cards are: the shop's commercial offers are the office's
  // work, a code's cost is read in the accountant's own figures (discount given, revenue), and
  // every creation, pause and resumption is journaled. The price list itself (`prices`) stays the
  // administrator's: a code takes off a share of it, it never changes what the shop charges.
  comptabilite: [
    'dashboard',
    'orders.read',
    'customers',
    'payments.validate',
    'refunds',
    'accounting',
    'giftcards',
    'promotions',
    'exports',
    'reports',
  ],
};

/** Whether `role` (any role, customers included) has `capability`. */
export function can(role: string | null | undefined, capability: Capability): boolean {
  return isStaffRole(role) && ROLE_CAPABILITIES[role].includes(capability);
}
