import { describe, expect, it } from 'vitest';
import {
  PAYMENT_DECISION_MESSAGES,
  paymentDecisionSchema,
  paymentDecisionSummary,
  paymentDescription,
} from './payment-decision';

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');
const KEY = 'o:0b9c2f4e-1d2a-4c3b-8e5f-6a7b8c9d0e1f';

describe('payment decisions', () => {
  it('sums up the selection before it is posted, in French', () => {
    const three = [
      { reference: 'SOO-1', amountCents: 12_900 },
      { reference: 'SOO-2', amountCents: 12_900 },
      { reference: 'SOO-3', amountCents: 12_900 },
    ];
    expect(plain(paymentDecisionSummary('validate', three))).toBe(
      '3 paiements seront validés : SOO-1, SOO-2, SOO-3, total 387,00 €',
    );
    expect(paymentDecisionSummary('validate', three)).toContain('validés\u202F:');
    expect(plain(paymentDecisionSummary('reject', three.slice(0, 1)))).toBe(
      '1 paiement sera rejeté : SOO-1, total 129,00 €',
    );
  });

  it('names the order, the customer and the amount of one payment', () => {
    expect(
      plain(paymentDescription({ orderNumber: 'SV-2026-000042', customer: 'Marie Curie', amountCents: 60_655 })),
    ).toBe('Commande SV-2026-000042 · Marie Curie · 606,55 €');
    expect(paymentDescription({ orderNumber: 'SV-2026-000043', customer: ' ', amountCents: 100 })).toContain(
      'client sans nom',
    );
  });

  it('accepts a decision on payments of the list, refuses anything else with a French message', () => {
    expect(paymentDecisionSchema.parse({ decision: 'validate', id: [KEY] })).toEqual({
      decision: 'validate',
      id: [KEY],
    });
    const none = paymentDecisionSchema.safeParse({ decision: 'validate', id: [] });
    expect(none.error?.issues[0]?.message).toBe(PAYMENT_DECISION_MESSAGES.selection);
    const forged = paymentDecisionSchema.safeParse({ decision: 'validate', id: ["o:1' or 1=1"] });
    expect(forged.error?.issues[0]?.message).toBe(PAYMENT_DECISION_MESSAGES.selection);
    const unknown = paymentDecisionSchema.safeParse({ decision: 'delete', id: [KEY] });
    expect(unknown.error?.issues[0]?.message).toBe(PAYMENT_DECISION_MESSAGES.decision);
  });

  it('asks a rejection for its reason, which a validation does not keep', () => {
    for (const reason of [undefined, '   ']) {
      const missing = paymentDecisionSchema.safeParse({ decision: 'reject', id: [KEY], reason });
      expect(missing.error?.issues).toEqual([
        expect.objectContaining({
          path: ['reason'],
          message: 'Indiquez le motif du rejet : le client le lira dans son e-mail.',
        }),
      ]);
    }
    expect(paymentDecisionSchema.parse({ decision: 'reject', id: [KEY], reason: ' Virement non reçu ' })).toEqual({
      decision: 'reject',
      id: [KEY],
      reason: 'Virement non reçu',
    });
    expect(paymentDecisionSchema.parse({ decision: 'validate', id: [KEY], reason: 'oubli' })).toEqual({
      decision: 'validate',
      id: [KEY],
    });
    const long = paymentDecisionSchema.safeParse({ decision: 'reject', id: [KEY], reason: 'x'.repeat(501) });
    expect(long.error?.issues[0]?.message).toBe(PAYMENT_DECISION_MESSAGES.reasonTooLong);
  });
});
