import { describe, expect, it } from 'vitest';
import { decide, type OrderState, withdrawalCase } from '../orders/lifecycle';
import { orderViewerRefusal, type Requester } from '../staff/access-rules';
import { isDocumentPath } from './redirects';
import { originalsState, withdrawalFollowUp, withdrawalOutcome, withdrawnCase } from './withdrawal-texts';

/*
 * The order-viewer rule's refusal (sign in, or the 404 of an unknown order), the order
 * documents the way back loads as documents, and the withdrawal's case: the one the lifecycle's
 * `withdraw` applies, worded per case with what becomes of the originals.
 */

const ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const FILE = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const ANONYMOUS: Requester = { kind: 'anonymous' };

describe('the order-viewer refusal', () => {
  it('sends a signed-out visitor to sign in for an account’s order or an unknown id, never for a guest’s', () => {
    expect(orderViewerRefusal(ANONYMOUS, { exists: true, ownedByAccount: true })).toBe('sign-in');
    expect(orderViewerRefusal(ANONYMOUS, { exists: false })).toBe('sign-in');
    expect(orderViewerRefusal(ANONYMOUS, { exists: true, ownedByAccount: false })).toBe('not-found');
  });

  it('answers anyone signed in who is not let in with the 404 of an unknown order', () => {
    for (const requester of [
      { kind: 'customer' },
      { kind: 'staff', role: 'atelier', heldForTwoFactor: false },
    ] as Requester[]) {
      expect(orderViewerRefusal(requester, { exists: true, ownedByAccount: true })).toBe('not-found');
      expect(orderViewerRefusal(requester, { exists: false })).toBe('not-found');
    }
  });
});

describe('the documents of an order', () => {
  it('are the PDFs, the ZIP and the files, not the pages', () => {
    for (const path of [
      `/facture/${ID}/pdf`,
      `/facture/${ID}/pdf?avoir=AV-2026-000001`,
      `/commande/${ID}/bordereau.pdf`,
      `/commande/${ID}/etiquette.pdf`,
      `/commande/${ID}/fichiers.zip`,
      `/commande/${ID}/fichiers/${FILE}`,
      `/commande/${ID}/fichiers/${FILE}/miniature.jpg`,
      `/commande/${ID}/fichiers/${FILE}/apercu.jpg`,
    ])
      expect(isDocumentPath(path), path).toBe(true);
    for (const path of [
      `/facture/${ID}`,
      `/facture/${ID}?avoir=AV-2026-000001`,
      `/commande/${ID}/fichiers`,
      `/confirmation?orderId=${ID}`,
      `/retractation/${ID}`,
      '/profile',
      null,
    ])
      expect(isDocumentPath(path), String(path)).toBe(false);
  });
});

function state(overrides: Partial<OrderState>): OrderState {
  return {
    status: 'pending',
    paymentStatus: 'pending',
    paymentMethod: 'card',
    placed: true,
    withdrawn: false,
    totalCents: 9490,
    paidCents: 0,
    refundedCents: 0,
    stage: 'awaiting_originals',
    physical: false,
    hasDeliveryAddress: false,
    supplement: null,
    workNotBefore: null,
    ...overrides,
  };
}

describe('the withdrawal’s case', () => {
  it('is the one the lifecycle applies: cancelled unpaid, refunded in full, or kept for the staff to settle', () => {
    const unpaid = state({});
    const paid = state({ paymentStatus: 'paid', paidCents: 9490 });
    const started = state({ paymentStatus: 'paid', paidCents: 9490, status: 'processing', stage: 'digitising' });
    const withdraw = { type: 'withdraw', withinPeriod: true } as const;

    expect(withdrawalCase(unpaid)).toBe('unpaid');
    expect(decide(unpaid, withdraw)).toMatchObject({ ok: true, next: { status: 'canceled', withdrawn: true } });

    expect(withdrawalCase(paid)).toBe('paid_not_started');
    const refunded = decide(paid, withdraw);
    expect(refunded).toMatchObject({ ok: true, next: { status: 'canceled', owedCents: 9490 } });

    expect(withdrawalCase(started)).toBe('started');
    expect(decide(started, withdraw)).toMatchObject({ ok: true, next: { status: 'processing', withdrawn: true } });
  });

  it('of an order withdrawn already comes from its status then and whether it was paid', () => {
    expect(withdrawnCase('pending', 'pending')).toBe('unpaid');
    expect(withdrawnCase('pending', 'refunded')).toBe('paid_not_started');
    expect(withdrawnCase('processing', 'partially_refunded')).toBe('started');
    expect(withdrawnCase('processing', 'paid')).toBe('started');
  });

  it('is told per case, never promising a refund of nothing, always saying where the originals are', () => {
    const originals = { stage: 'awaiting_originals', shippedAt: null, returnOriginals: true };
    const unpaid = withdrawalOutcome({ status: 'pending', paymentStatus: 'pending', ...originals }, 0);
    expect(unpaid.money).not.toMatch(/rembours/);
    expect(unpaid.money).toContain('rien ne vous sera demandé');
    expect(unpaid.originals).toContain('ne nous les envoyez pas');

    const paid = withdrawalOutcome({ status: 'pending', paymentStatus: 'paid', ...originals }, 9490);
    expect(paid.money).toContain('la totalité des sommes versées (94,90\u00A0€)');

    const atWorkshop = { stage: 'digitising', shippedAt: null, returnOriginals: true };
    const started = withdrawalOutcome({ status: 'processing', paymentStatus: 'paid', ...atWorkshop }, 9490);
    expect(started.money).toContain('le montant correspondant au service déjà fourni reste dû');
    expect(started.originals).toContain('à l’atelier');

    expect(originalsState({ stage: 'ready', shippedAt: new Date(), returnOriginals: true })).toBe('returned');
    expect(withdrawalFollowUp('started', 'returned').originals).toBe('Vos originaux vous ont déjà été renvoyés.');
    // French typography: a narrow no-break space before « : ».
    expect(unpaid.money).toMatch(/réglée\u202F:/);
  });
});
