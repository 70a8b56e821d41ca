import { describe, expect, it } from 'vitest';
import { CHECKLIST_ITEMS, checklistPercent, isReadyForProduction } from './checklist';
import { fill, PAYMENT_VALIDATION_MESSAGES, STATUS_CHANGE_MESSAGES } from './messages';

const items = (states: string[]) => states.map((state) => ({ state: state as 'complete' | 'warning' | 'incomplete' }));

describe('the production checklist', () => {
  it('has 8 items', () => {
    expect(CHECKLIST_ITEMS).toHaveLength(8);
  });

  it.each([
    [['complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'warning', 'incomplete'], 75, false],
    [['complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'warning'], 88, true],
    [['complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'complete', 'complete'], 100, true],
    [['warning', 'warning', 'warning', 'warning', 'warning', 'warning', 'warning', 'warning'], 0, false],
    [['complete', 'complete', 'complete', 'complete', 'incomplete'], 80, true],
  ])('%j is %s %% (ready: %s)', (states, percent, ready) => {
    expect(checklistPercent(items(states))).toBe(percent);
    expect(isReadyForProduction(percent)).toBe(ready);
  });
});

describe('the notices', () => {
  it('fill in the checklist’s wording', () => {
    expect(fill(PAYMENT_VALIDATION_MESSAGES.validatedMany, { n: 3 })).toBe('3 paiements validés avec succès');
    expect(fill(PAYMENT_VALIDATION_MESSAGES.rejectedOne, { reference: 'VIR-42' })).toBe('Paiement VIR-42 rejeté');
    expect(fill(STATUS_CHANGE_MESSAGES.sent, { name: 'Jeanne Martin' })).toBe(
      'Email de notification envoyé à Jeanne Martin',
    );
    expect(fill(STATUS_CHANGE_MESSAGES.sentDescription, { status: 'Expédié' })).toBe('Statut de commande: Expédié');
    expect(fill('{unknown}', {})).toBe('{unknown}');
  });
});
