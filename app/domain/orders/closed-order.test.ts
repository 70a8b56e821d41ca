import { describe, expect, it } from 'vitest';
import { closedOrderMessage } from './closed-order';

describe('an order closed before payment', () => {
  it('says the customer withdrew and owes nothing', () => {
    expect(
      closedOrderMessage({
        status: 'canceled',
        paymentStatus: 'pending',
        withdrawnAt: new Date('2026-11-24T10:00:00Z'),
      }),
    ).toBe('Commande annulée le 24/11/2026 à votre demande, rien ne vous sera demandé.');
  });

  it('says a cancelled order asks for nothing', () => {
    expect(closedOrderMessage({ status: 'canceled', paymentStatus: 'failed', withdrawnAt: null })).toBe(
      'Commande annulée, rien ne vous sera demandé.',
    );
  });

  it('stays silent for a live or paid order', () => {
    expect(closedOrderMessage({ status: 'pending', paymentStatus: 'pending', withdrawnAt: null })).toBeNull();
    expect(closedOrderMessage({ status: 'canceled', paymentStatus: 'refunded', withdrawnAt: new Date() })).toBeNull();
  });
});
