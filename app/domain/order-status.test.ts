import { describe, expect, it } from 'vitest';
import { orderStatusLabel, paymentStatusLabel } from './order-status';

describe('status labels', () => {
  it.each([
    ['pending', 'En attente'],
    ['processing', 'En traitement'],
    ['completed', 'Traité'],
    ['shipped', 'Expédié'],
    ['canceled', 'Annulé'],
    ['archived', 'archived'],
  ])('order %s reads %s', (code, label) => {
    expect(orderStatusLabel(code)).toBe(label);
  });

  it.each([
    ['pending', 'En attente'],
    ['paid', 'Payée'],
    ['failed', 'Échec'],
    ['refunded', 'Remboursée'],
    ['disputed', 'disputed'],
  ])('payment %s reads %s', (code, label) => {
    expect(paymentStatusLabel(code)).toBe(label);
  });
});
