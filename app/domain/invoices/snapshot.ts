import { z } from 'zod';
import type { OrderLine, PricedRow } from '../orders/order-line';
import '../zod-config';
import { company } from '../company';
import { formatEurosFromCents } from '../format';
import { paymentMethodLabel } from '../order-status';
import { DEFAULT_PRICE_LIST, type PriceListDocument, TAPE_OR_REEL_SUPPORTS } from '../pricing/default-price-list';
import { DELIVERY_LABELS as DELIVERY_LABELS_OF_PRICES } from '../pricing/labels';
import { EXTRA_ITEM_DETAILS, EXTRA_ITEM_TITLES, isExtraItemType } from '../pricing/pricing';
import { DOCUMENT_TITLES, type DocumentKind, parisDay } from './number';
import { allocateCents, linesExcludingVat, splitVat, VAT_RATE, VAT_RATE_PERCENT } from './vat';

/*
 * The frozen content of an invoice or a credit note (invoices.snapshot, credit_notes.snapshot):
 * everything the document shows, copied at issue so that it never changes afterwards, whatever
 * happens to the shop's identity, the customer's profile, the price list or the order (French
 * invoicing rules, docs/product.md « Compliance »). The /facture page and the PDF both render this and only
 * this, so they show the same content.
 *
 * Amounts are integer cents including VAT (the shop's prices are TTC); each line's excluding-VAT
 * amount is its share of the total excluding VAT (vat.ts), so every column adds up exactly. Every
 * line's total is exactly its quantity times its unit price. An item priced by rounding the whole
 * line once (docs/pricing.md: 100 photos at 0,455 € are 45,50 €, not 100 x 0,46 €) is stated as one
 * lot ("Lot de 100 photos") of quantity 1, so that no line shows figures that do not multiply.
 */

export const SNAPSHOT_VERSION = 1;

export interface SellerIdentity {
  name: string;
  legalForm: string;
  capital: string;
  siren: string;
  rcs: string;
  vatNumber: string;
  street: string;
  postalCode: string;
  city: string;
  country: string;
  email: string;
  phone: string;
}

export interface DocumentParty {
  name: string;
  email: string | null;
  phone: string | null;
  street: string | null;
  postalCode: string | null;
  city: string | null;
  country: string;
}

/**
 * What a line sells, for the VAT « catégorie de l'opération » mention and the e-reporting split:
 * `goods` are things handed over (copies on USB keys or DVDs, the USB key or DVD of a delivery);
 * everything else (digitisation, restoration, shipping of the originals, express, insurance,
 * retention, gift cards, discounts on digitisation) is a service.
 */
export type LineCategory = 'goods' | 'services';

/** The document's category of operation: `mixed` when it has lines of both kinds. */
export type OperationCategory = LineCategory | 'mixed';

export interface DocumentLine extends PricedRow {
  /** This line's share of the document's total excluding VAT. */
  totalExcludingVatCents: number;
  /** Absent on documents issued before categories were recorded: read it with lineCategory(). */
  category?: LineCategory;
}

/**
 * A business buyer (a company, an association, a public body): the mentions a business invoice
 * carries and what its e-invoice needs. `chorusServiceCode` and `engagementNumber` are a public
 * body's references for Chorus Pro.
 */
export interface BusinessBuyer {
  companyName: string;
  /** 9 digits (checked with the Luhn key). */
  siren: string;
  /** Intra-community VAT number (FR + key + SIREN), checked; null when the buyer has none. */
  vatNumber: string | null;
  purchaseOrderReference: string | null;
  /** A public body invoiced through Chorus Pro. */
  publicBody: boolean;
  /**
   * A public body's establishment (14 digits, SIREN first, checked): Chorus Pro's recipient.
   * Absent on documents and profiles written before it was asked.
   */
  siret?: string | null;
  chorusServiceCode: string | null;
  engagementNumber: string | null;
}

/** A business invoice's payment terms (Code de commerce L441-9 and L441-10). */
export interface PaymentTerms {
  /** YYYY-MM-DD. */
  dueDate: string;
  /** The late-payment penalty rate as the invoice states it. */
  latePenaltyRate: string;
  /** The fixed recovery indemnity, 40 € (D441-5). */
  recoveryIndemnityCents: number;
}

export interface DocumentPayment {
  method: string;
  /** French label of the method ("Carte bancaire"). */
  methodLabel: string;
  paidAt: string | null;
  provider: string | null;
}

export interface DocumentSnapshot {
  version: typeof SNAPSHOT_VERSION;
  kind: DocumentKind;
  /** "Facture" or "Avoir". */
  title: string;
  number: string;
  issuedAt: string;
  orderId: string;
  orderNumber: string;
  /** Date of the sale (the order), YYYY-MM-DD in French time. */
  serviceDate: string;
  seller: SellerIdentity;
  buyer: DocumentParty | null;
  /**
   * Where the order was delivered, when it is not the buyer's (billing) address: a mention invoices
   * carry from September 2026. Absent on documents issued before addresses were frozen on orders.
   */
  deliveryAddress?: DocumentParty;
  lines: DocumentLine[];
  currency: 'EUR';
  vatRate: number;
  vatRatePercent: number;
  totalExcludingVatCents: number;
  vatCents: number;
  totalCents: number;
  payment: DocumentPayment | null;
  /** Credit note: the invoice it cancels. */
  invoiceNumber?: string;
  reason?: string;
  /**
   * What a gift card paid of the order (decision 037), shown as a negative line: a single-purpose
   * voucher invoiced with its VAT when it was sold, so this document's total and VAT leave it out.
   */
  giftCardCents?: number;
  /** Legal mentions printed at the foot of the document. */
  notes: string[];
  /** The buyer as a business (absent for a consumer and on older documents). */
  business?: BusinessBuyer;
  /** Goods, services or both (absent on older documents: read it with operationCategoryOf()). */
  operationCategory?: OperationCategory;
  /** The shop opted for VAT on debits (« Option pour le paiement de la taxe d'après les débits »). */
  vatOnDebits?: boolean;
  /** Business invoices: due date, penalty rate, recovery indemnity. */
  paymentTerms?: PaymentTerms;
  /**
   * A demonstration document, « sans valeur »: money taken by the built-in sandbox (TEST-FA-…,
   * TEST-AV-…), or generated by `npm run seed -- --demo`.
   */
  demo?: boolean;
}

/** What a demonstration document says on its page and its PDF. */
export const DEMO_DOCUMENT_NOTICE = 'Document de démonstration — sans valeur';

/** The shop's legal identity (domain/company.ts), as an invoice must state it. */
export function sellerFromCompany(source: typeof company = company): SellerIdentity {
  return {
    name: source.legalName,
    legalForm: 'Société par actions simplifiée (SAS)',
    capital: source.capital,
    siren: source.siren,
    rcs: source.rcs,
    vatNumber: source.vatNumber,
    street: source.street,
    postalCode: source.postalCode,
    city: source.city,
    country: 'France',
    email: source.email,
    phone: source.phone,
  };
}

const DELIVERY_LABELS: Readonly<Record<string, string>> = {
  digital: 'Téléchargement numérique',
  usb: 'Clé USB',
  // One name for the product everywhere: the price list's (« DVD »).
  disc: DELIVERY_LABELS_OF_PRICES.disc,
};

export interface SnapshotOrder {
  id: string;
  number: string;
  createdAt: Date | string | number;
  deliveryMethod: string;
  deliveryCostCents: number;
  sendShippingCostCents: number;
  returnShippingCostCents: number;
  /** The express turnaround and the return's ad valorem insurance (absent on older orders). */
  expressPriceCents?: number;
  insurancePriceCents?: number;
  /** The value declared for the insurance, in cents. */
  insuredValueCents?: number;
  totalPriceCents: number;
  items: readonly OrderLine[];
  /**
   * What promotion codes took off (decision 038), one negative line each: the total is already net
   * of them, so the lines add up to it and the VAT is that of the price paid.
   */
  discounts?: ReadonlyArray<{ label: string; detail: string; cents: number }>;
}

function itemDetail(list: PriceListDocument, item: OrderLine): string {
  const options: string[] = [];
  const reels = list.filmReelPricing as Record<string, { description: string }>;
  if (item.reelSize) options.push(reels[item.reelSize]?.description ?? item.reelSize);
  const qualities = list.qualityOptions as Record<string, { label: string }>;
  options.push(`Qualité ${(qualities[item.quality]?.label ?? item.quality).toLowerCase()}`);
  if (item.resolution) options.push(item.resolution.replace(/dpi$/, '\u00A0dpi'));
  const formats = list.formatOptions as Record<string, { label: string }>;
  if (item.format) options.push(formats[item.format]?.label ?? item.format);
  return options.join(', ');
}

/** A priced row with what it sells (services unless said otherwise). */
export interface CategorisedRow extends PricedRow {
  category: LineCategory;
}

function simpleLine(
  label: string,
  detail: string,
  quantity: number,
  unitPriceCents: number,
  category: LineCategory = 'services',
): CategorisedRow {
  return { label, detail, quantity, unitPriceCents, totalCents: quantity * unitPriceCents, category };
}

/** Extra copies are things handed over; the retention extension and gift cards are not. */
const GOODS_ITEM_TYPES: readonly string[] = ['copy-usb', 'copy-disc'];
/** A delivery on a USB key or a DVD hands over the key or the disc. */
const GOODS_DELIVERY_METHODS: readonly string[] = ['usb', 'disc'];

/** "Lot de 100 photos": an item whose amount is stated as a whole. */
function lotDetail(list: PriceListDocument, item: OrderLine, detail: string): string {
  const supports = list.supports as Record<string, { unit: string }>;
  const unit = supports[item.type]?.unit ?? 'article';
  const words = `Lot de ${item.quantity}\u00A0${unit}${item.quantity > 1 && !/[sx]$/.test(unit) ? 's' : ''}`;
  return detail ? `${words} · ${detail}` : words;
}

/** The lines of one order item: the digitisation, then restoration and denoising when priced. */
function itemLines(list: PriceListDocument, item: OrderLine): CategorisedRow[] {
  // Extra copies and the retention extension (decision 029): one line, priced per key, DVD or year.
  if (isExtraItemType(item.type)) {
    const title = EXTRA_ITEM_TITLES[item.type];
    const detail = EXTRA_ITEM_DETAILS[item.type];
    const category = GOODS_ITEM_TYPES.includes(item.type) ? 'goods' : 'services';
    return item.quantity > 0 && item.quantity * item.unitPriceCents === item.lineTotalCents
      ? [simpleLine(title, detail, item.quantity, item.unitPriceCents, category)]
      : [simpleLine(title, detail, 1, item.lineTotalCents, category)];
  }
  const supports = list.supports as Record<string, { title: string; unit: string }>;
  const title = supports[item.type]?.title ?? item.type;
  const detail = itemDetail(list, item);
  const restored = Math.max(0, item.restoration);
  const restorationCents = restored * list.restorationPrice;
  const denoised = item.denoise && (TAPE_OR_REEL_SUPPORTS as readonly string[]).includes(item.type);
  const denoiseCents = denoised ? item.quantity * list.denoisePrice : 0;
  const digitisationCents = item.lineTotalCents - restorationCents - denoiseCents;

  if (digitisationCents < 0 || item.quantity <= 0) {
    // The price list does not explain this line: state it as one amount rather than wrong figures.
    return [simpleLine(title, lotDetail(list, item, detail), 1, item.lineTotalCents)];
  }
  const lines: CategorisedRow[] = [];
  if (item.quantity * item.unitPriceCents === digitisationCents) {
    lines.push(simpleLine(title, detail, item.quantity, item.unitPriceCents));
  } else {
    lines.push(simpleLine(title, lotDetail(list, item, detail), 1, digitisationCents));
  }
  if (restorationCents > 0) lines.push(simpleLine('Restauration', title, restored, list.restorationPrice));
  if (denoiseCents > 0) lines.push(simpleLine('Débruitage', title, item.quantity, list.denoisePrice));
  return lines;
}

/**
 * The document's lines (including VAT) for an order: its items, then delivery and the shipping of
 * the originals. They add up to the order's total; should the order's fields not (a hand-edited
 * order), an adjustment line says so rather than an invoice whose lines do not add up.
 */
export function buildDocumentLines(
  order: SnapshotOrder,
  list: PriceListDocument = DEFAULT_PRICE_LIST,
): CategorisedRow[] {
  const lines = order.items.flatMap((item) => itemLines(list, item));
  if (order.deliveryCostCents > 0) {
    const label = DELIVERY_LABELS[order.deliveryMethod] ?? order.deliveryMethod;
    const category = GOODS_DELIVERY_METHODS.includes(order.deliveryMethod) ? 'goods' : 'services';
    lines.push(simpleLine('Livraison', label, 1, order.deliveryCostCents, category));
  }
  if (order.sendShippingCostCents > 0) {
    lines.push(simpleLine('Étiquette d’envoi prépayée', 'Envoi de vos originaux', 1, order.sendShippingCostCents));
  }
  if (order.returnShippingCostCents > 0) {
    lines.push(simpleLine('Retour des originaux', 'Envoi suivi', 1, order.returnShippingCostCents));
  }
  if ((order.expressPriceCents ?? 0) > 0) {
    lines.push(simpleLine('Traitement express', 'Délai de traitement raccourci', 1, order.expressPriceCents ?? 0));
  }
  if ((order.insurancePriceCents ?? 0) > 0) {
    const declared = formatEurosFromCents(order.insuredValueCents ?? 0);
    lines.push(
      simpleLine('Assurance du retour', `Ad valorem, valeur déclarée ${declared}`, 1, order.insurancePriceCents ?? 0),
    );
  }
  for (const discount of order.discounts ?? []) {
    if (discount.cents > 0) lines.push(simpleLine(discount.label, discount.detail, 1, -discount.cents));
  }
  const sum = lines.reduce((total, line) => total + line.totalCents, 0);
  if (sum !== order.totalPriceCents) {
    lines.push(
      simpleLine('Ajustement', 'Écart entre le détail et le total de la commande', 1, order.totalPriceCents - sum),
    );
  }
  return lines;
}

export interface BuildSnapshotInput {
  kind: DocumentKind;
  number: string;
  issuedAt: Date;
  order: SnapshotOrder;
  priceList?: PriceListDocument | null;
  seller?: SellerIdentity;
  buyer: DocumentParty | null;
  /** The delivery address when it differs from the buyer's. */
  deliveryAddress?: DocumentParty | null;
  payment?: { method: string; paidAt: Date | null; provider?: string | null } | null;
  /** Credit note: the invoice it cancels. */
  invoiceNumber?: string;
  reason?: string;
  /** Credit note for part of the invoice (a partial refund) rather than its cancellation. */
  partial?: boolean;
  demo?: boolean;
  /** What a gift card paid of the order: its negative line « déjà facturé » (decision 037). */
  giftCard?: { cents: number; maskedCode: string; saleInvoiceNumber: string | null } | null;
  /** The buyer as a business, frozen on the order; null or absent for a consumer. */
  business?: BusinessBuyer | null;
  /**
   * The shop's invoicing settings at issue (invoicing-settings.ts): VAT on debits, and a business
   * document's payment terms. Absent: neither is recorded (as on documents issued before them).
   */
  invoicing?: { vatOnDebits: boolean; paymentDueDays: number; latePenaltyRate: string } | null;
}

/** The fixed recovery indemnity of a late business payment (Code de commerce D441-5). */
export const RECOVERY_INDEMNITY_CENTS = 4000;

/** A business document's payment terms: due so many days after its issue (in French time). */
export function paymentTermsOf(
  issuedAt: Date,
  settings: { paymentDueDays: number; latePenaltyRate: string },
): PaymentTerms {
  const [year, month, day] = parisDay(issuedAt).split('-').map(Number) as [number, number, number];
  const due = new Date(Date.UTC(year, month - 1, day + settings.paymentDueDays));
  return {
    dueDate: due.toISOString().slice(0, 10),
    latePenaltyRate: settings.latePenaltyRate,
    recoveryIndemnityCents: RECOVERY_INDEMNITY_CENTS,
  };
}

/** The line of a gift card's part: a payment already invoiced, with the VAT counted at the card's sale. */
function giftCardLine(card: NonNullable<BuildSnapshotInput['giftCard']>): CategorisedRow {
  const sale = card.saleInvoiceNumber ? ` (facture ${card.saleInvoiceNumber})` : '';
  return simpleLine(
    `Carte cadeau ${card.maskedCode}`,
    `Bon à usage unique déjà facturé${sale}, TVA comptée à sa vente`,
    1,
    -card.cents,
  );
}

function formatDayFr(isoDay: string): string {
  const [year, month, day] = isoDay.split('-');
  return `${day}/${month}/${year}`;
}

function legalNotes(input: BuildSnapshotInput, paidDay: string | null, methodLabel: string | null): string[] {
  const notes = [`TVA au taux de ${VAT_RATE_PERCENT}\u00A0% incluse dans les prix.`];
  if (input.kind === 'credit_note') {
    if (input.invoiceNumber) {
      notes.unshift(
        input.partial
          ? `Avoir partiel sur la facture ${input.invoiceNumber}.`
          : `Avoir annulant la facture ${input.invoiceNumber}.`,
      );
    }
    if (input.reason) notes.push(`Motif\u00A0: ${input.reason}`);
    notes.push('Remboursement par le moyen de paiement utilisé pour la commande.');
  } else {
    if (paidDay) {
      notes.unshift(
        `Facture acquittée le ${formatDayFr(paidDay)}${methodLabel ? ` (${methodLabel.toLowerCase()})` : ''}.`,
      );
    }
    notes.push('Pas d’escompte pour paiement anticipé.');
    // The late-payment penalties and the recovery indemnity are business mentions (L441-10): a
    // business document states them with its payment terms (mentions.ts); a consumer's does not.
    if (input.business && !input.invoicing) {
      notes.push(
        'Pénalités de retard\u00A0: trois fois le taux d’intérêt légal\u00A0; indemnité forfaitaire pour frais de recouvrement de 40\u00A0€.',
      );
    }
  }
  return notes;
}

/** The frozen content of an invoice or credit note. Pure: the caller supplies every fact. */
export function buildDocumentSnapshot(input: BuildSnapshotInput): DocumentSnapshot {
  const { order } = input;
  const cardCents = input.giftCard && input.giftCard.cents > 0 ? input.giftCard.cents : 0;
  const rawLines = buildDocumentLines(order, input.priceList ?? DEFAULT_PRICE_LIST);
  if (input.giftCard && cardCents > 0) rawLines.push(giftCardLine(input.giftCard));
  const excluding = linesExcludingVat(rawLines.map((line) => line.totalCents));
  const lines = rawLines.map((line, i) => ({ ...line, totalExcludingVatCents: excluding[i] as number }));
  const split = splitVat(order.totalPriceCents - cardCents);
  const payment = input.payment
    ? {
        method: input.payment.method,
        methodLabel: paymentMethodLabel(input.payment.method),
        paidAt: input.payment.paidAt ? input.payment.paidAt.toISOString() : null,
        provider: input.payment.provider ?? null,
      }
    : null;
  const paidDay = input.payment?.paidAt ? parisDay(input.payment.paidAt) : null;
  const snapshot: DocumentSnapshot = {
    version: SNAPSHOT_VERSION,
    kind: input.kind,
    title: DOCUMENT_TITLES[input.kind],
    number: input.number,
    issuedAt: input.issuedAt.toISOString(),
    orderId: order.id,
    orderNumber: order.number,
    serviceDate: parisDay(new Date(order.createdAt)),
    seller: input.seller ?? sellerFromCompany(),
    buyer: input.buyer,
    lines,
    currency: 'EUR',
    vatRate: VAT_RATE,
    vatRatePercent: VAT_RATE_PERCENT,
    totalExcludingVatCents: split.totalExcludingVatCents,
    vatCents: split.vatCents,
    totalCents: split.totalCents,
    payment,
    notes: legalNotes(input, paidDay, payment?.methodLabel ?? null),
  };
  snapshot.operationCategory = operationCategoryOf({ lines });
  if (input.deliveryAddress) snapshot.deliveryAddress = input.deliveryAddress;
  if (input.business) snapshot.business = input.business;
  if (input.invoicing) {
    snapshot.vatOnDebits = input.invoicing.vatOnDebits;
    if (input.business) snapshot.paymentTerms = paymentTermsOf(input.issuedAt, input.invoicing);
  }
  if (cardCents > 0) {
    snapshot.giftCardCents = cardCents;
    snapshot.notes.push(
      `Dont ${formatEurosFromCents(cardCents)} réglés par carte cadeau, bon à usage unique dont la TVA a été déclarée à sa vente.`,
    );
  }
  if (input.invoiceNumber !== undefined) snapshot.invoiceNumber = input.invoiceNumber;
  if (input.reason !== undefined) snapshot.reason = input.reason;
  if (input.demo) snapshot.demo = true;
  return snapshot;
}

const PARTIAL_CREDIT_WORDS: Readonly<Record<LineCategory, string>> = {
  services: 'prestations',
  goods: 'marchandises',
};

/**
 * The lines of a partial credit note of `amountCents` (including VAT): its amount shared among the
 * categories of the invoice it credits, pro rata of that invoice's amounts excluding VAT per
 * category (the shop has one VAT rate), one line each, « Remboursement partiel — prestations » or
 * « — marchandises ». Shared with allocateCents, so the lines add up exactly to the amount; each
 * line's excluding-VAT share is computed like any document's (vat.ts). A category whose lines net
 * to zero or less (a discount, a gift card's part) takes no share; an invoice whose lines say
 * nothing (none given) gives one line of services.
 */
export function partialCreditLines(
  orderNumber: string,
  amountCents: number,
  reason?: string,
  invoiceLines: ReadonlyArray<Pick<DocumentLine, 'category' | 'totalExcludingVatCents'>> = [],
): DocumentLine[] {
  const categories: LineCategory[] = ['services', 'goods'];
  const weights = categories.map((category) =>
    Math.max(
      0,
      invoiceLines
        .filter((line) => lineCategory(line) === category)
        .reduce((sum, line) => sum + line.totalExcludingVatCents, 0),
    ),
  );
  const shares = allocateCents(amountCents, weights);
  const parts = categories
    .map((category, i) => ({ category, cents: shares[i] as number }))
    .filter((part) => part.cents !== 0);
  const excluding = linesExcludingVat(parts.map((part) => part.cents));
  const detail = `Commande ${orderNumber}${reason ? ` · ${reason}` : ''}`;
  return parts.map((part, i) => ({
    label: `Remboursement partiel — ${PARTIAL_CREDIT_WORDS[part.category]}`,
    detail,
    quantity: 1,
    unitPriceCents: part.cents,
    totalCents: part.cents,
    totalExcludingVatCents: excluding[i] as number,
    category: part.category,
  }));
}

/** The buyer's name as a document shows it: "Marie Curie", else the e-mail address, else "Client". */
export function partyName(
  firstName: string | null | undefined,
  lastName: string | null | undefined,
  email?: string | null,
) {
  const name = `${firstName ?? ''} ${lastName ?? ''}`.trim();
  return name || email || 'Client';
}

const party = z.object({
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable().default(null),
  street: z.string().nullable(),
  postalCode: z.string().nullable(),
  city: z.string().nullable(),
  country: z.string(),
});

/** Reads a stored snapshot back (the JSON column is `unknown` to TypeScript); null when it is not one. */
export const documentSnapshotSchema = z.object({
  version: z.literal(SNAPSHOT_VERSION),
  kind: z.enum(['invoice', 'credit_note']),
  title: z.string(),
  number: z.string(),
  issuedAt: z.string(),
  orderId: z.string(),
  orderNumber: z.string(),
  serviceDate: z.string(),
  seller: z.object({
    name: z.string(),
    legalForm: z.string(),
    capital: z.string(),
    siren: z.string(),
    rcs: z.string(),
    vatNumber: z.string(),
    street: z.string(),
    postalCode: z.string(),
    city: z.string(),
    country: z.string(),
    email: z.string(),
    phone: z.string(),
  }),
  buyer: party.nullable(),
  deliveryAddress: party.optional(),
  lines: z.array(
    z.object({
      label: z.string(),
      detail: z.string(),
      quantity: z.number().int(),
      unitPriceCents: z.number().int(),
      totalCents: z.number().int(),
      totalExcludingVatCents: z.number().int(),
      category: z.enum(['goods', 'services']).optional(),
    }),
  ),
  currency: z.literal('EUR'),
  vatRate: z.number(),
  vatRatePercent: z.number(),
  totalExcludingVatCents: z.number().int(),
  vatCents: z.number().int(),
  totalCents: z.number().int(),
  payment: z
    .object({
      method: z.string(),
      methodLabel: z.string(),
      paidAt: z.string().nullable(),
      provider: z.string().nullable(),
    })
    .nullable(),
  invoiceNumber: z.string().optional(),
  reason: z.string().optional(),
  giftCardCents: z.number().int().positive().optional(),
  notes: z.array(z.string()),
  demo: z.boolean().optional(),
  business: z
    .object({
      companyName: z.string(),
      siren: z.string(),
      vatNumber: z.string().nullable(),
      purchaseOrderReference: z.string().nullable(),
      publicBody: z.boolean(),
      siret: z.string().nullable().optional(),
      chorusServiceCode: z.string().nullable(),
      engagementNumber: z.string().nullable(),
    })
    .optional(),
  operationCategory: z.enum(['goods', 'services', 'mixed']).optional(),
  vatOnDebits: z.boolean().optional(),
  paymentTerms: z
    .object({ dueDate: z.string(), latePenaltyRate: z.string(), recoveryIndemnityCents: z.number().int() })
    .optional(),
});

/** A line's category; lines of older documents, which did not record it, were services. */
export function lineCategory(line: Pick<DocumentLine, 'category'>): LineCategory {
  return line.category ?? 'services';
}

/** Goods, services or mixed, from the lines (for documents that did not record it). */
export function operationCategoryOf(
  snapshot: Pick<DocumentSnapshot, 'lines' | 'operationCategory'>,
): OperationCategory {
  if (snapshot.operationCategory) return snapshot.operationCategory;
  const kinds = new Set(snapshot.lines.filter((line) => line.totalCents !== 0).map(lineCategory));
  if (kinds.size === 0) return 'services';
  return kinds.size === 2 ? 'mixed' : (kinds.values().next().value as LineCategory);
}

export function parseDocumentSnapshot(value: unknown): DocumentSnapshot | null {
  const result = documentSnapshotSchema.safeParse(value);
  return result.success ? (result.data as DocumentSnapshot) : null;
}
