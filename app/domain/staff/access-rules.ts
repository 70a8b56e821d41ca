import { type Capability, can, type StaffRole } from './permissions';

/*
 * The door (docs/decisions/019-one-authorization-door.md): what every request the server answers
 * needs, one line per route of app/routes.ts (by route id), per Better Auth endpoint and per
 * endpoint mounted outside React Router. The server's door (app/server/access/door.server.ts)
 * decides each request from these lines and the capability table (permissions.ts), before a body
 * is read; tests enumerate the routes and endpoints from the code and fail on a missing line.
 * Pure: no I/O.
 */

export type AccessRule =
  /** Anyone; nothing of the back office behind it, so no staff rule is read. */
  | { kind: 'public' }
  /** Any signed-in account (a staff session under the team's rules). */
  | { kind: 'signed-in' }
  /**
   * An order's pages and documents: its owner, a guest holding its token (both checked by the route,
   * which has the order), or a staff member holding `staff`, who sees any order.
   */
  | { kind: 'order-viewer'; staff: Capability }
  /** A staff member holding the capability. */
  | { kind: 'staff'; capability: Capability }
  /** An action serving several intents: each intent's capability; an intent not listed is refused. */
  | { kind: 'staff-intents'; intents: Readonly<Record<string, Capability>> }
  /** Never over HTTP (library endpoints the shop does through its own rules, or does not offer). */
  | { kind: 'closed' };

export interface RouteAccess {
  /** GET and HEAD. */
  read: AccessRule;
  /** POST, PUT, PATCH, DELETE: the action (a route without one answers 405 behind the door). */
  write: AccessRule;
  /** « Sécurité »: an administrator held by the two-factor rule comes here to turn it on. */
  whileHeldForTwoFactor?: true;
}

const PUBLIC: RouteAccess = { read: { kind: 'public' }, write: { kind: 'public' } };
const SIGNED_IN: RouteAccess = { read: { kind: 'signed-in' }, write: { kind: 'signed-in' } };

function staff(read: Capability, write: Capability = read): RouteAccess {
  return { read: { kind: 'staff', capability: read }, write: { kind: 'staff', capability: write } };
}

function staffIntents(read: Capability, intents: Record<string, Capability>): RouteAccess {
  return { read: { kind: 'staff', capability: read }, write: { kind: 'staff-intents', intents } };
}

/** Staff see any order's pages and documents (invoices, credit notes, files) with this capability. */
export const ORDER_VIEWER_CAPABILITY: Capability = 'orders.read';
const ORDER_VIEWER: RouteAccess = {
  read: { kind: 'order-viewer', staff: ORDER_VIEWER_CAPABILITY },
  write: { kind: 'order-viewer', staff: ORDER_VIEWER_CAPABILITY },
};

/**
 * The order dialog's action (routes/admin/orders.tsx): the capability of each intent. What an
 * intent does may depend on its fields (a cancellation carrying its refund is the refund's work,
 * done by the lifecycle under `refunds`); who may send it never does.
 */
export const ORDER_DIALOG_INTENTS: Readonly<Record<string, Capability>> = {
  status: 'orders.write',
  stage: 'orders.write',
  note: 'orders.write',
  refund: 'refunds',
  'settle-withdrawal': 'refunds',
  // « À rembourser »: money owed back (a reduction at reception, a cancellation) made by who may refund.
  'approve-refund': 'refunds',
  // The customer's IBAN in full, to pay a refund by transfer (journaled; decision 025).
  'reveal-iban': 'refunds',
  // The plateforme agréée (decision 047): a rejected invoice corrected and issued again (a credit
  // note and a new invoice: the refund right, as every credit note), a failed deposit retried, the
  // statuses read now rather than at the next pass.
  'einvoice-reissue': 'refunds',
  'einvoice-retry': 'orders.write',
  'einvoice-poll': 'orders.write',
};

/**
 * « Cartes cadeaux » (routes/admin/gift-cards.tsx): the search (posted, so that a whole code never
 * sits in an address), sending a card again, extending it; cancelling an unused card refunds its
 * sale order: the refund right.
 */
export const GIFT_CARD_INTENTS: Readonly<Record<string, Capability>> = {
  search: 'giftcards',
  resend: 'giftcards',
  extend: 'giftcards',
  cancel: 'refunds',
};

/**
 * « Codes promo » (routes/admin/promotions.tsx): creating a code, pausing it, resuming it. All
 * three are the offer's management, one right; none moves money already paid.
 */
export const PROMOTION_INTENTS: Readonly<Record<string, Capability>> = {
  create: 'promotions',
  pause: 'promotions',
  resume: 'promotions',
};

/**
 * « E-reporting » (routes/admin/e-reporting.tsx): sending a transmission to the plateforme agréée
 * and recording one deposited by hand are the accountant's declarations; the VAT regime that sets
 * the cadence is a setting of the shop.
 */
export const E_REPORTING_INTENTS: Readonly<Record<string, Capability>> = {
  send: 'accounting',
  'mark-deposited': 'accounting',
  regime: 'settings',
};

/** « Sécurité »: one's own two-factor sign-in, and the team's rule (routes/admin/security.tsx). */
export const SECURITY_INTENTS: Readonly<Record<string, Capability>> = {
  enable: 'dashboard',
  confirm: 'dashboard',
  disable: 'dashboard',
  policy: 'team',
};

/** Every route of app/routes.ts, by route id (its `id`, else its file without the extension). */
export const ROUTE_ACCESS = {
  // The public site
  'routes/site/home': PUBLIC,
  'routes/site/services': PUBLIC,
  'routes/site/service': PUBLIC,
  'routes/site/boite-soovenirs': PUBLIC,
  'routes/site/faq': PUBLIC,
  'routes/site/essai-gratuit': PUBLIC,
  'routes/site/essai-gratuit-sans-accent': PUBLIC,
  'routes/site/boutique': PUBLIC,
  'routes/site/services-entreprises': PUBLIC,
  'routes/site/blog': PUBLIC,
  'routes/site/blog-post': PUBLIC,
  'routes/site/contact': PUBLIC,
  'routes/site/page-organisation-commande': PUBLIC,
  'routes/site/page-histoire-photographie': PUBLIC,
  'routes/site/page-guide-conservation': PUBLIC,
  'routes/site/page-numerisation-fonctionnement': PUBLIC,
  'routes/site/page-villes-du-loiret': PUBLIC,
  'routes/site/page-a-propos': PUBLIC,
  'routes/site/page-mentions-legales': PUBLIC,
  'routes/site/page-legal-notice': PUBLIC,
  'routes/site/page-cgv': PUBLIC,
  'routes/site/page-politique-de-confidentialite': PUBLIC,
  'routes/api/sitemap-xml': PUBLIC,
  'routes/api/robots-txt': PUBLIC,
  // Forgets the CMS's cached answers: a setting of the site.
  'routes/api/content-invalidate': staff('settings'),
  'routes/site/not-found': PUBLIC,

  // Accounts (sign-in pages are open; the invitation's token is checked by its page)
  'routes/auth/login': PUBLIC,
  'routes/auth/register': PUBLIC,
  'routes/auth/logout': PUBLIC,
  'routes/auth/setup-super-admin': PUBLIC,
  'routes/auth/invitation': PUBLIC,
  'routes/auth/two-factor': PUBLIC,
  // « Mon compte »: one's own profile and business identity (update-profile, save-business,
  // remove-business), the session's user only.
  'routes/account/profile': SIGNED_IN,
  'routes/shop/quote': SIGNED_IN,

  // The shop: open pages whose own checks (cart, quote token, payment session) decide
  'routes/shop/configurator': PUBLIC,
  'routes/shop/checkout': PUBLIC,
  'routes/shop/quotes': PUBLIC,
  'routes/shop/quote-link': PUBLIC,
  'routes/shop/sandbox-payment': PUBLIC,
  'routes/shop/monetico-payment': PUBLIC,
  // « Offrir une carte cadeau » (decision 037): a draft order, then the checkout's own checks.
  'routes/shop/gift-card': PUBLIC,
  'routes/api/price-list': PUBLIC,
  'routes/api/create-checkout': PUBLIC,
  'routes/api/update-guest-order': PUBLIC,
  // The gateways' notifications: authenticated by their signatures, not by a session.
  'routes/api/webhooks/stripe': PUBLIC,
  'routes/api/webhooks/monetico': PUBLIC,
  'routes/api/webhooks/sandbox': PUBLIC,

  // An order's pages and documents
  'routes/account/withdrawal': ORDER_VIEWER,
  'routes/shop/confirmation': ORDER_VIEWER,
  'routes/shop/invoice': ORDER_VIEWER,
  'routes/api/invoice-pdf': ORDER_VIEWER,
  'routes/shop/supplement': ORDER_VIEWER,
  'routes/shop/supplement-invoice': ORDER_VIEWER,
  // The customer's IBAN for a refund by transfer: the owner or the guest's token (staff get a 404).
  'routes/shop/refund-iban': ORDER_VIEWER,
  'routes/shop/shipping-label': ORDER_VIEWER,
  'routes/shop/order-slip-pdf': ORDER_VIEWER,
  'routes/shop/files': ORDER_VIEWER,
  // Extra copies and the paid retention (decision 029): the gallery's people; the route refuses the staff's orders.
  'routes/shop/extra-copies': ORDER_VIEWER,
  'routes/shop/gift-card-redeem': PUBLIC,
  // The printable card of a sale order: the order's people, as its other documents.
  'routes/shop/gift-card-pdf': ORDER_VIEWER,
  'routes/shop/files-zip': ORDER_VIEWER,
  'routes/shop/files-original': ORDER_VIEWER,
  'files-thumbnail': ORDER_VIEWER,
  'files-preview': ORDER_VIEWER,
  // « Partager avec la famille »: the order's shares (staff holding orders.read see them, change nothing).
  'routes/shop/shares': ORDER_VIEWER,
  // A family share's pages: the token in the address decides (sharing.server.ts, rate limited).
  'routes/share/share': PUBLIC,
  // A relative orders a copy of the share's files as a guest (share-copies.server.ts).
  'routes/share/share-copy': PUBLIC,
  'routes/share/share-zip': PUBLIC,
  'routes/share/share-original': PUBLIC,
  'share-thumbnail': PUBLIC,
  'share-preview': PUBLIC,
  'files-video': ORDER_VIEWER,
  'files-chapters': ORDER_VIEWER,
  // « Preview and keep »: the review page and its thumbnails; the route checks owner or token.
  'routes/shop/selection': ORDER_VIEWER,
  'routes/shop/selection-thumbnail': ORDER_VIEWER,

  // Better Auth: each endpoint by its own line below (AUTH_ENDPOINT_ACCESS).
  'routes/api/auth': PUBLIC,
  // A message of the shop's to anyone: what the e-mail settings' owner may send.
  'routes/api/send-email': staff('settings'),

  // The back office
  'routes/admin/layout': staff('dashboard'),
  'routes/admin/orders': staffIntents('orders.read', ORDER_DIALOG_INTENTS),
  'routes/admin/customers': staff('customers'),
  'routes/admin/workshop': staff('workshop'),
  'routes/admin/pricing': staff('prices'),
  'routes/admin/reports': staff('reports'),
  'routes/admin/accounting': staff('accounting'),
  // « Exports comptables »: the accounts the exports write are the accountant's setting.
  'routes/admin/accounting-exports': staff('accounting'),
  // E-reporting's transmissions (decision 051) and the file of each.
  'routes/admin/e-reporting': staffIntents('accounting', E_REPORTING_INTENTS),
  'routes/admin/e-reporting-file': staff('accounting'),
  'routes/admin/gift-cards': staffIntents('giftcards', GIFT_CARD_INTENTS),
  'routes/admin/promotions': staffIntents('promotions', PROMOTION_INTENTS),
  'routes/admin/tests': staff('tests'),
  'routes/admin/team': staff('team'),
  // The e-mails' DKIM key: part of the e-mail settings.
  'routes/admin/email-signing': staff('settings'),
  // The plateforme agréée's addresses and credentials, and its connection test: a setting.
  'routes/admin/e-invoicing': staff('settings'),
  'routes/admin/security': {
    ...staffIntents('dashboard', SECURITY_INTENTS),
    whileHeldForTwoFactor: true,
  },
  'routes/admin/journal': staff('journal'),
  'routes/admin/api/search': staff('orders.read'),
  'routes/admin/api/notifications': staff('dashboard'),
  'routes/admin/api/notifications-stream': staff('dashboard'),
  'routes/admin/api/reports': staff('reports'),
  // The outbox is a setting; re-sending an order's e-mail is the workshop's everyday work.
  'routes/admin/api/emails': staffIntents('settings', { resend: 'orders.write', release: 'settings' }),
  // One e-mail's delivery state, followed by the order dialog after a status change.
  'routes/admin/api/email-state': staff('orders.read'),
  'routes/admin/api/email-config': staff('settings'),
  'routes/admin/api/payment-config': staff('settings'),
  'routes/admin/api/payments': staff('payments.validate'),
  'routes/admin/api/coliship': staff('settings'),
  'routes/admin/api/tracking-key': staff('settings'),
  'routes/admin/api/reception': staff('orders.read', 'reception'),
  'routes/admin/api/reception-photo': staff('orders.read'),
  'routes/admin/api/shipping': staff('orders.read', 'shipping'),
  'routes/admin/api/order-files': staff('orders.read', 'files'),
  'routes/admin/api/order-message': staff('orders.write'),
  'routes/admin/api/files-config': staff('settings'),
  // VAT on debits and business payment terms (docs/invoicing.md).
  'routes/admin/api/invoicing-config': staff('settings'),
  'routes/admin/exports': staff('exports'),
  // The FEC, the journal in entries and the Chorus Pro ZIP.
  'routes/admin/accounting-export': staff('exports'),
  // The payment journal's page and its signed archive (docs/payment-journal.md).
  'routes/admin/payment-journal': staff('exports'),
  'routes/admin/payment-journal-archive': staff('exports'),
  'routes/admin/job-sheet-pdf': staff('workshop'),
  'routes/admin/job-sheets-pdf': staff('workshop'),
  'routes/admin/api/orders-bulk': staff('orders.read', 'orders.write'),
  'routes/admin/api/saved-filters': staff('orders.read'),
} as const satisfies Readonly<Record<string, RouteAccess>>;

/** The line of a route id, or undefined: a route without one is refused (and fails the tests). */
export function routeAccess(routeId: string): RouteAccess | undefined {
  return Object.hasOwn(ROUTE_ACCESS, routeId) ? (ROUTE_ACCESS as Record<string, RouteAccess>)[routeId] : undefined;
}

/** The tus endpoint (UPLOADS_PATH, app/server/files/uploads.server.ts), mounted before React Router. */
export const UPLOADS_ACCESS: RouteAccess = staff('files');

/**
 * Every endpoint Better Auth mounts under /api/auth, by its path there. The pages sign in, out and
 * up through the server's own calls; over HTTP remain the links of e-mails and the endpoints a
 * browser may call for its own account. Not listed: closed.
 */
const AUTH_OPEN: AccessRule = { kind: 'public' };
const AUTH_SESSION: AccessRule = { kind: 'signed-in' };
const AUTH_CLOSED: AccessRule = { kind: 'closed' };
export const AUTH_ENDPOINT_ACCESS: Readonly<Record<string, AccessRule>> = {
  '/sign-up/email': AUTH_OPEN,
  '/sign-in/email': AUTH_OPEN,
  '/sign-in/magic-link': AUTH_OPEN,
  '/magic-link/verify': AUTH_OPEN,
  '/verify-email': AUTH_OPEN,
  '/send-verification-email': AUTH_OPEN,
  '/request-password-reset': AUTH_OPEN,
  '/reset-password': AUTH_OPEN,
  '/reset-password/:token': AUTH_OPEN,
  // The second step of a sign-in: no session yet, the pending sign-in's cookie.
  '/two-factor/verify-totp': AUTH_OPEN,
  '/two-factor/send-otp': AUTH_OPEN,
  '/two-factor/verify-otp': AUTH_OPEN,
  '/two-factor/verify-backup-code': AUTH_OPEN,
  '/ok': AUTH_OPEN,
  '/error': AUTH_OPEN,
  // Reading one's own session answers null without one, and signing out without one does nothing:
  // nothing to guard, and a browser whose session ended must still get its answer (not a 401).
  '/get-session': AUTH_OPEN,
  '/sign-out': AUTH_OPEN,
  // One's own account and sessions.
  '/update-user': AUTH_SESSION,
  '/change-password': AUTH_SESSION,
  '/verify-password': AUTH_SESSION,
  '/update-session': AUTH_SESSION,
  '/list-sessions': AUTH_SESSION,
  '/revoke-session': AUTH_SESSION,
  '/revoke-sessions': AUTH_SESSION,
  '/revoke-other-sessions': AUTH_SESSION,
  '/list-accounts': AUTH_SESSION,
  '/account-info': AUTH_SESSION,
  '/two-factor/get-totp-uri': AUTH_SESSION,
  '/two-factor/enable': AUTH_SESSION,
  '/two-factor/disable': AUTH_SESSION,
  '/two-factor/generate-backup-codes': AUTH_SESSION,
  // The address is the account's identity here (orders, invoices); deleting an account is not offered.
  '/change-email': AUTH_CLOSED,
  '/delete-user': AUTH_CLOSED,
  '/delete-user/callback': AUTH_CLOSED,
  // No social sign-in.
  '/sign-in/social': AUTH_CLOSED,
  '/callback/:id': AUTH_CLOSED,
  '/link-social': AUTH_CLOSED,
  '/unlink-account': AUTH_CLOSED,
  '/refresh-token': AUTH_CLOSED,
  '/get-access-token': AUTH_CLOSED,
  // The admin plugin (create-user, set-role, ban, impersonate…): « Équipe » does this through the
  // team's rules (invitation only, last administrator kept, journaled), never over HTTP.
  '/admin/*': AUTH_CLOSED,
};

/** The line of a path below /api/auth: exact, then a `:param` segment, then a `/*` prefix; else closed. */
export function authEndpointAccess(path: string): AccessRule {
  const exact = AUTH_ENDPOINT_ACCESS[path];
  if (exact) return exact;
  const segments = path.split('/');
  for (const [pattern, rule] of Object.entries(AUTH_ENDPOINT_ACCESS)) {
    if (pattern.endsWith('/*')) {
      if (path.startsWith(pattern.slice(0, -1))) return rule;
      continue;
    }
    const parts = pattern.split('/');
    if (parts.length === segments.length && parts.every((part, i) => part.startsWith(':') || part === segments[i]))
      return rule;
  }
  return AUTH_CLOSED;
}

/** Who is asking, as the door sees it (a deactivated member's session counts as none). */
export type Requester =
  | { kind: 'anonymous' }
  | { kind: 'customer' }
  | { kind: 'staff'; role: StaffRole; heldForTwoFactor: boolean };

export type Refusal =
  /** 401: sign in. */
  | 'unauthenticated'
  /** 403: a customer in the back office. */
  | 'forbidden'
  /** 403: a staff member whose role lacks the capability, or an intent not listed. */
  | 'denied'
  /** 403: an administrator without two-factor sign-in while the team requires it. */
  | 'two-factor'
  /** 404: not served over HTTP. */
  | 'closed';

export type Decision =
  /** `staffView`: for an order-viewer rule, whether the requester sees any order as staff. */
  { allow: true; staffView: boolean } | { allow: false; refusal: Refusal };

const ALLOW: Decision = { allow: true, staffView: false };
const refuse = (refusal: Refusal): Decision => ({ allow: false, refusal });

export const WRITE_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The rule of a request to a route: its action's for a write, its loader's otherwise. */
export function ruleFor(access: RouteAccess, method: string): AccessRule {
  return WRITE_METHODS.has(method.toUpperCase()) ? access.write : access.read;
}

/**
 * The door's decision. `intent` is what a staff-intents action was asked to do; absent (the body
 * not read yet), a member holding at least one of its intents' capabilities passes this first
 * check and the action asks again once it has read the intent.
 */
export function decide(
  rule: AccessRule,
  requester: Requester,
  options: { intent?: unknown; whileHeldForTwoFactor?: boolean } = {},
): Decision {
  if (rule.kind === 'closed') return refuse('closed');
  if (rule.kind === 'public') return ALLOW;
  const held = requester.kind === 'staff' && requester.heldForTwoFactor && !options.whileHeldForTwoFactor;
  if (rule.kind === 'signed-in') {
    if (requester.kind === 'anonymous') return refuse('unauthenticated');
    return held ? refuse('two-factor') : ALLOW;
  }
  if (rule.kind === 'order-viewer') {
    if (requester.kind !== 'staff') return ALLOW;
    if (held) return refuse('two-factor');
    return { allow: true, staffView: can(requester.role, rule.staff) };
  }
  if (requester.kind === 'anonymous') return refuse('unauthenticated');
  if (requester.kind === 'customer') return refuse('forbidden');
  const capabilities = capabilitiesOf(rule, options.intent);
  if (capabilities.length === 0 || !capabilities.some((capability) => can(requester.role, capability)))
    return refuse('denied');
  return held ? refuse('two-factor') : ALLOW;
}

/**
 * What a visitor gets who may not see an order (decision 023): the order-viewer
 * rule's refusal, for every page and document of an order. A signed-out visitor is sent to sign in
 * and back (`sign-in`) when the order belongs to an account (its e-mails carry no token: its owner
 * signs in) or when no such order exists (the answer then says no more than « sign in », so ids
 * cannot be probed). A guest's order opens only with its token: `not-found`. Anyone signed in who
 * is not let in gets `not-found`, the answer an unknown order gets.
 */
export type OrderViewerRefusal = 'sign-in' | 'not-found';

export function orderViewerRefusal(
  requester: Requester,
  order: { exists: false } | { exists: true; ownedByAccount: boolean },
): OrderViewerRefusal {
  if (requester.kind !== 'anonymous') return 'not-found';
  if (!order.exists) return 'sign-in';
  return order.ownedByAccount ? 'sign-in' : 'not-found';
}

/** What a staff rule may be passed with: its capability, the intent's, or (no intent yet) any intent's. */
function capabilitiesOf(rule: Extract<AccessRule, { kind: 'staff' | 'staff-intents' }>, intent: unknown): Capability[] {
  if (rule.kind === 'staff') return [rule.capability];
  if (intent === undefined) return Object.values(rule.intents);
  const capability = typeof intent === 'string' && Object.hasOwn(rule.intents, intent) ? rule.intents[intent] : null;
  return capability ? [capability] : [];
}
