import { company } from '../company';
import { formatEurosFromCents, frenchTypography, NBSP } from '../format';

/*
 * Paying by bank transfer or cheque (the terms of sale, section 6): the customer chooses it at
 * checkout, the order stays "payment pending", and the money arrives outside any gateway; the back
 * office validates it (Validation Paiements), which issues the invoice. The instructions the
 * customer needs are written here once, for the confirmation page and the e-mail alike.
 */

export const CHECKOUT_PAYMENT_METHODS = ['card', 'transfer', 'cheque'] as const;
export type CheckoutPaymentMethod = (typeof CHECKOUT_PAYMENT_METHODS)[number];

/** How an order is paid: the customer's choice, or `gift_card` when a gift card paid all of it (decision 037). */
export type OrderPaymentMethod = CheckoutPaymentMethod | 'gift_card';

export const OFFLINE_PAYMENT_METHODS = ['transfer', 'cheque'] as const;
export type OfflinePaymentMethod = (typeof OFFLINE_PAYMENT_METHODS)[number];

export function isCheckoutPaymentMethod(value: unknown): value is CheckoutPaymentMethod {
  return typeof value === 'string' && (CHECKOUT_PAYMENT_METHODS as readonly string[]).includes(value);
}

export function isOfflinePaymentMethod(value: unknown): value is OfflinePaymentMethod {
  return typeof value === 'string' && (OFFLINE_PAYMENT_METHODS as readonly string[]).includes(value);
}

/** The choices of the checkout, as the customer reads them. */
export const CHECKOUT_PAYMENT_METHOD_TEXT: Readonly<
  Record<CheckoutPaymentMethod, { label: string; description: string }>
> = {
  card: {
    label: 'Carte bancaire',
    description: 'Paiement immédiat et sécurisé sur la page de notre prestataire de paiement.',
  },
  transfer: {
    label: 'Virement bancaire',
    description: frenchTypography(
      'Nous vous donnons nos coordonnées bancaires ; la numérisation commence à réception du virement.',
    ),
  },
  cheque: {
    label: 'Chèque',
    description: frenchTypography(
      'Vous nous envoyez votre chèque par courrier ; la numérisation commence à sa réception.',
    ),
  },
};

/** The same choices for a gift card's sale (decision 037): the card, not any work, waits for the money. */
export const GIFT_CARD_PAYMENT_METHOD_TEXT: typeof CHECKOUT_PAYMENT_METHOD_TEXT = {
  card: CHECKOUT_PAYMENT_METHOD_TEXT.card,
  transfer: {
    label: 'Virement bancaire',
    description: `Nous vous donnons nos coordonnées bancaires${NBSP}; la carte cadeau est émise à réception du virement.`,
  },
  cheque: {
    label: 'Chèque',
    description: `Vous nous envoyez votre chèque par courrier${NBSP}; la carte cadeau est émise à sa réception.`,
  },
};

/**
 * The shop's bank account for transfers. Set here, and only here, with the bank's own details
 * (the account holder is the company, as the terms of sale say cheques are payable to it).
 */
export const bankAccount = {
  holder: company.legalName,
  iban: `FR76${NBSP}3000${NBSP}4008${NBSP}2800${NBSP}0123${NBSP}4567${NBSP}841`,
  bic: 'BNPAFRPPXXX',
  bank: 'BNP Paribas, Paris Archives',
} as const;

/** Where cheques are sent: the workshop, which also receives the originals. */
export const chequeAddress = {
  payableTo: company.legalName,
  lines: [`${company.brand} – Service comptabilité`, company.street, `${company.postalCode} ${company.city}`],
} as const;

export const PAYMENT_METHOD_MESSAGES = {
  invalid: 'Moyen de paiement invalide. Veuillez choisir la carte bancaire, le virement ou le chèque.',
  notPending: 'Cette commande ne peut plus changer de moyen de paiement.',
} as const;

export interface PaymentInstructions {
  method: OfflinePaymentMethod;
  title: string;
  intro: string;
  /** Label and value pairs, in the order a customer copies them. */
  details: { label: string; value: string }[];
  outro: string;
}

/**
 * What the customer must do to pay an order by transfer or cheque. A gift card's sale (decision 037)
 * has no work to start and no parcel to slip a cheque into: its card is issued when the money comes.
 */
export function paymentInstructions(
  method: OfflinePaymentMethod,
  /** `amountDueCents`: the money asked for, the total less a gift card's part (decision 037). */
  order: { number: string; amountDueCents: number },
  { giftCard = false }: { giftCard?: boolean } = {},
): PaymentInstructions {
  const amount = formatEurosFromCents(order.amountDueCents);
  if (method === 'transfer') {
    return {
      method,
      title: 'Paiement par virement bancaire',
      intro: `Veuillez virer ${amount} sur notre compte, en indiquant la référence ${order.number} dans le libellé du virement.`,
      details: [
        { label: 'Titulaire du compte', value: bankAccount.holder },
        { label: 'IBAN', value: bankAccount.iban },
        { label: 'BIC', value: bankAccount.bic },
        { label: 'Banque', value: bankAccount.bank },
        { label: 'Montant', value: amount },
        { label: 'Libellé du virement', value: order.number },
      ],
      outro: giftCard
        ? 'Votre carte cadeau est émise dès réception de votre virement (un à trois jours ouvrés). Vous recevrez alors un e-mail avec votre facture.'
        : 'La numérisation commence dès réception de votre virement (un à trois jours ouvrés). Vous recevrez alors un e-mail avec votre facture.',
    };
  }
  return {
    method,
    title: 'Paiement par chèque',
    intro: `Veuillez établir un chèque de ${amount} à l’ordre de ${chequeAddress.payableTo} et l’envoyer à l’adresse ci-dessous, en inscrivant la référence ${order.number} au dos.`,
    details: [
      { label: 'À l’ordre de', value: chequeAddress.payableTo },
      { label: 'Adresse d’envoi', value: chequeAddress.lines.join(', ') },
      { label: 'Montant', value: amount },
      { label: 'Référence au dos du chèque', value: order.number },
    ],
    outro: giftCard
      ? `Votre carte cadeau est émise dès réception de votre chèque${NBSP}; vous recevrez alors un e-mail avec votre facture.`
      : frenchTypography(
          'Vous pouvez aussi glisser le chèque dans le colis de vos originaux. La numérisation commence dès réception de votre chèque ; vous recevrez alors un e-mail avec votre facture.',
        ),
  };
}
