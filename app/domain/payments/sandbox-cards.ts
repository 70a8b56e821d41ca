import { normaliseCardNumber } from './card';

/*
 * The sandbox gateway's test cards: Stripe's test numbers (docs.stripe.com/testing), so that the
 * same cards work in the sandbox and on Stripe in test mode. Any other number is declined, as
 * Stripe declines a real card in test mode: the sandbox never pretends to charge a real card.
 */

export type SandboxDeclineCode = 'card_declined' | 'insufficient_funds' | 'live_card_in_test_mode';

export type SandboxCardOutcome =
  | { outcome: 'success' }
  | { outcome: 'declined'; code: SandboxDeclineCode; message: string };

export const SANDBOX_DECLINE_MESSAGES: Readonly<Record<SandboxDeclineCode, string>> = {
  card_declined: 'Votre carte a été refusée. Veuillez utiliser une autre carte ou contacter votre banque.',
  insufficient_funds: 'Paiement refusé : fonds insuffisants sur la carte.',
  live_card_in_test_mode:
    'Carte refusée : ce paiement est en mode test, utilisez une carte de test (par exemple 4242 4242 4242 4242).',
};

export const SANDBOX_TEST_CARDS = [
  { number: '4242424242424242', label: 'Visa, paiement accepté', outcome: { outcome: 'success' } },
  { number: '5555555555554444', label: 'Mastercard, paiement accepté', outcome: { outcome: 'success' } },
  {
    number: '4000000000000002',
    label: 'Carte refusée',
    outcome: { outcome: 'declined', code: 'card_declined', message: SANDBOX_DECLINE_MESSAGES.card_declined },
  },
  {
    number: '4000000000009995',
    label: 'Fonds insuffisants',
    outcome: { outcome: 'declined', code: 'insufficient_funds', message: SANDBOX_DECLINE_MESSAGES.insufficient_funds },
  },
] as const satisfies readonly { number: string; label: string; outcome: SandboxCardOutcome }[];

/** What the sandbox does with a card number (already checked by the card form's schema). */
export function sandboxCardOutcome(cardNumber: string): SandboxCardOutcome {
  const digits = normaliseCardNumber(cardNumber);
  const card = SANDBOX_TEST_CARDS.find((c) => c.number === digits);
  if (card) return card.outcome;
  return {
    outcome: 'declined',
    code: 'live_card_in_test_mode',
    message: SANDBOX_DECLINE_MESSAGES.live_card_in_test_mode,
  };
}
