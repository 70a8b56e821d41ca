import { describe, expect, it } from 'vitest';
import { SANDBOX_DECLINE_MESSAGES, sandboxCardOutcome } from './sandbox-cards';

describe('sandbox test cards', () => {
  it.each([
    ['4242 4242 4242 4242', { outcome: 'success' }],
    ['5555555555554444', { outcome: 'success' }],
    [
      '4000 0000 0000 0002',
      { outcome: 'declined', code: 'card_declined', message: SANDBOX_DECLINE_MESSAGES.card_declined },
    ],
    [
      '4000000000009995',
      { outcome: 'declined', code: 'insufficient_funds', message: SANDBOX_DECLINE_MESSAGES.insufficient_funds },
    ],
    // Any other (valid) number: a real card, which the sandbox never pretends to charge.
    [
      '4012888888881881',
      { outcome: 'declined', code: 'live_card_in_test_mode', message: SANDBOX_DECLINE_MESSAGES.live_card_in_test_mode },
    ],
  ])('%s', (number, expected) => {
    expect(sandboxCardOutcome(number)).toEqual(expected);
  });

  it('explains declines in French', () => {
    expect(SANDBOX_DECLINE_MESSAGES.card_declined).toMatch(/refusée/);
    expect(SANDBOX_DECLINE_MESSAGES.insufficient_funds).toMatch(/fonds insuffisants/);
  });
});
