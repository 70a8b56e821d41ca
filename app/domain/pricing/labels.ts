import type { DeliveryMethod, PriceListDocument, SendMethod } from './default-price-list';
import type { LineChoice, OrderExtraKey, PriceBreakdown, PricedLine } from './pricing';

/*
 * The French wording of prices: line labels, the breakdown's rows, the extras (delivery, shipping
 * of the originals). Shared by the configurator, the quotes, the e-mails and the documents.
 */

export const DELIVERY_LABELS: Readonly<Record<DeliveryMethod, string>> = {
  digital: 'Téléchargement sécurisé',
  usb: 'Clé USB',
  disc: 'DVD',
};

export const DELIVERY_DETAILS: Readonly<Record<DeliveryMethod, string>> = {
  digital: 'Vos fichiers en ligne, dès la numérisation terminée',
  usb: 'Envoyée sous 3 à 5 jours ouvrés',
  disc: 'Envoyé sous 3 à 5 jours ouvrés',
};

/** Non-digital deliveries take 3 to 5 working days. */
export const PHYSICAL_DELIVERY_DELAY = '3 à 5 jours ouvrés';

/** « Clé USB livrée… », « DVD livré… »: the participle agrees with the medium. */
export function physicalDeliverySentence(method: Exclude<DeliveryMethod, 'digital'>): string {
  const delivered = method === 'usb' ? 'livrée' : 'livré';
  return `${DELIVERY_LABELS[method]} ${delivered} sous ${PHYSICAL_DELIVERY_DELAY} après la numérisation.`;
}

export const SEND_METHOD_LABELS: Readonly<Record<SendMethod, string>> = {
  self: 'Je les envoie moi-même',
  label: 'Étiquette d’envoi prépayée',
};

export const RETURN_ORIGINALS_LABEL = 'Retour de vos originaux';

/** « Traitement express (48 h ouvrées après réception) »: the promise follows the price list's express delay. */
export function expressOptionTitle(list: Pick<PriceListDocument, 'turnaround'>): string {
  return `Traitement express (${list.turnaround.expressDays * 24}\u00A0h ouvrées après réception)`;
}

/** The standard delay, stated next to the express option. */
export function standardTurnaroundSentence(list: Pick<PriceListDocument, 'turnaround'>): string {
  return `Délai standard\u00A0: ${list.turnaround.standardDays}\u00A0jours ouvrés après la réception de vos originaux, sans supplément.`;
}

export const BREAKDOWN_LABELS: Readonly<Record<keyof PriceBreakdown, string>> = {
  basePriceCents: 'Numérisation (prix de base)',
  qualityPriceCents: 'Supplément qualité',
  resolutionPriceCents: 'Supplément résolution',
  formatPriceCents: 'Supplément format',
  restorationPriceCents: 'Restauration',
  denoisePriceCents: 'Débruitage',
  deliveryCostCents: 'Livraison des fichiers',
  sendShippingCostCents: 'Envoi de vos originaux',
  returnShippingCostCents: 'Retour de vos originaux',
  expressPriceCents: 'Traitement express',
  insurancePriceCents: 'Assurance du retour',
  discountCents: 'Remise code promo',
  totalPriceCents: 'Total TTC',
};

/** "Photos papier" or, for film, "Films Super 8 et 16 mm — Bobine moyenne (de 7 à 13 cm)". */
export function lineTitle(list: PriceListDocument, line: Pick<LineChoice, 'type' | 'reelSize'>): string {
  const title = list.supports[line.type]?.title ?? line.type;
  if (line.type === 'film' && line.reelSize) {
    const reel = list.filmReelPricing[line.reelSize];
    return reel ? `${title} — ${reel.description}` : title;
  }
  return title;
}

/** The options of a line that are not the defaults' silence: "4800 dpi · TIFF · Premium · débruitage". */
export function lineOptions(list: PriceListDocument, line: LineChoice): string[] {
  const options: string[] = [];
  if (line.resolution) options.push(line.resolution.replace('dpi', '\u00A0dpi'));
  if (line.format) options.push(list.formatOptions[line.format]?.label ?? line.format);
  options.push(`qualité ${(list.qualityOptions[line.quality]?.label ?? line.quality).toLowerCase()}`);
  if (line.restoration > 0) options.push(`${line.restoration} à restaurer`);
  if (line.denoise) options.push('débruitage');
  return options;
}

export interface LabelledAmount {
  label: string;
  totalCents: number;
}

/** Delivery and shipping of the originals, when they cost something or were chosen. */
export function extraLines(
  price: Pick<PriceBreakdown, OrderExtraKey> & { discountCents?: number },
  choice: { deliveryMethod: DeliveryMethod; sendMethod: SendMethod; returnOriginals: boolean },
): LabelledAmount[] {
  const extras: LabelledAmount[] = [];
  if (choice.deliveryMethod !== 'digital' || price.deliveryCostCents > 0) {
    extras.push({
      label: `Livraison — ${DELIVERY_LABELS[choice.deliveryMethod]}`,
      totalCents: price.deliveryCostCents,
    });
  }
  if (choice.sendMethod === 'label') {
    extras.push({ label: SEND_METHOD_LABELS.label, totalCents: price.sendShippingCostCents });
  }
  if (choice.returnOriginals) extras.push({ label: RETURN_ORIGINALS_LABEL, totalCents: price.returnShippingCostCents });
  if (price.expressPriceCents > 0)
    extras.push({ label: BREAKDOWN_LABELS.expressPriceCents, totalCents: price.expressPriceCents });
  if (price.insurancePriceCents > 0) {
    extras.push({ label: BREAKDOWN_LABELS.insurancePriceCents, totalCents: price.insurancePriceCents });
  }
  // Promotion codes (decision 038): the total is net of them, so the lines must say what they took.
  if ((price.discountCents ?? 0) > 0) {
    extras.push({ label: BREAKDOWN_LABELS.discountCents, totalCents: -(price.discountCents ?? 0) });
  }
  return extras;
}

/** Summary lines of an e-mail: one per order line, with its amount. */
export function emailItems(list: PriceListDocument, lines: PricedLine[]) {
  return lines.map((line) => ({
    label: `${lineTitle(list, line)} (${lineOptions(list, line).join(', ')})`,
    quantity: line.quantity,
    totalCents: line.lineTotalCents,
  }));
}
