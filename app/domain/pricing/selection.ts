import { z } from 'zod';
import '../zod-config';
import {
  DELIVERY_METHODS,
  type DeliveryMethod,
  FORMATS,
  type Format,
  type PriceListDocument,
  QUALITIES,
  type Quality,
  REEL_SIZES,
  RESOLUTIONS,
  type ReelSize,
  type Resolution,
  SEND_METHODS,
  type SendMethod,
  SUPPORT_TYPES,
  type SupportType,
} from './default-price-list';
import { isImageSupport, isRestorable, isTapeOrReel, type LineChoice, type PricedOrder, priceOrder } from './pricing';

/*
 * What a visitor chooses in the configurator, and the one place that turns untrusted input (a URL,
 * a posted form, a stored quote) into it. Field names are those of the form, which are those of
 * the URL, so that a link reproduces an estimate:
 *
 *   support=photos&photos.quantity=100&photos.resolution=4800dpi&photos.format=tif
 *   &support=film&film.reels.medium=2&delivery=usb&send=label&returnOriginals=on
 *
 * Anything else in the input (a price, a total, an option that does not apply to the support) is
 * ignored: prices only ever come from the price list. An unknown support, size or option, or a
 * quantity that is not a whole number from 1 to 100 000, gets a French message on its field.
 */

export const MIN_QUANTITY = 1;
export const MAX_QUANTITY = 100_000;
/** Above this an order is a custom quote (and the amounts stay far below PostgreSQL's integer). */
export const MAX_TOTAL_CENTS = 1_000_000_000;

export interface SupportChoice {
  type: SupportType;
  /** Number of items; for film, the number of reels (the sum of `reels`). */
  quantity: number;
  /** Film only: number of reels of each size. */
  reels: Record<ReelSize, number> | null;
  quality: Quality;
  /** Image supports only. */
  resolution: Resolution | null;
  /** Image supports only. */
  format: Format | null;
  /** Restorable supports only: how many of the items to restore. */
  restoration: number;
  /** Tapes and film only. */
  denoise: boolean;
}

export interface Selection {
  /** At most one entry per support, in the order of SUPPORT_TYPES. */
  supports: SupportChoice[];
  deliveryMethod: DeliveryMethod;
  sendMethod: SendMethod;
  returnOriginals: boolean;
  /** The express turnaround (price list `turnaround`); absent in selections saved before it existed. */
  express?: boolean;
}

export const EMPTY_SELECTION: Selection = {
  supports: [],
  deliveryMethod: 'digital',
  sendMethod: 'self',
  returnOriginals: false,
};

/** The quantity a support starts with when a visitor ticks it. */
export const DEFAULT_QUANTITIES: Readonly<Record<SupportType, number>> = {
  photos: 100,
  slides: 100,
  ektachromes: 50,
  negatives: 100,
  'plaques-de-verre': 10,
  vhs: 1,
  'vhs-c': 1,
  minidv: 1,
  film: 1,
  documents: 50,
  journaux: 20,
};

export const DEFAULT_RESOLUTION: Resolution = '2400dpi';
export const DEFAULT_FORMAT: Format = 'jpeg';
export const DEFAULT_QUALITY: Quality = 'standard';
export const DEFAULT_REEL_SIZE: ReelSize = 'small';

export function defaultSupportChoice(type: SupportType): SupportChoice {
  const image = isImageSupport(type);
  const quantity = DEFAULT_QUANTITIES[type];
  return {
    type,
    quantity,
    reels: type === 'film' ? { small: 0, medium: 0, large: 0, [DEFAULT_REEL_SIZE]: quantity } : null,
    quality: DEFAULT_QUALITY,
    resolution: image ? DEFAULT_RESOLUTION : null,
    format: image ? DEFAULT_FORMAT : null,
    restoration: 0,
    denoise: false,
  };
}

/** The order lines of a selection: one per support, and one per reel size for film. */
export function selectionLines(selection: Selection): LineChoice[] {
  const lines: LineChoice[] = [];
  for (const choice of selection.supports) {
    const common = {
      type: choice.type,
      quality: choice.quality,
      resolution: choice.resolution,
      format: choice.format,
      restoration: choice.restoration,
      denoise: choice.denoise,
    };
    if (choice.type === 'film' && choice.reels) {
      for (const size of REEL_SIZES) {
        const reels = choice.reels[size];
        if (reels > 0) lines.push({ ...common, quantity: reels, reelSize: size, restoration: 0 });
      }
    } else {
      lines.push({ ...common, quantity: choice.quantity, reelSize: null });
    }
  }
  return lines;
}

/** The estimate of a selection with a price list: the same function on both sides. */
export function computeQuote(list: PriceListDocument, selection: Selection): PricedOrder {
  return priceOrder(list, {
    lines: selectionLines(selection),
    deliveryMethod: selection.deliveryMethod,
    sendMethod: selection.sendMethod,
    returnOriginals: selection.returnOriginals,
    express: selection.express === true,
  });
}

// ---------------------------------------------------------------------------------------------
// Untrusted input -> Selection

export type SelectionErrors = Record<string, string[]>;

export interface ResolveOptions {
  /** Saving a quote or ordering needs at least one support; an estimate does not. */
  requireSupport?: boolean;
  /** When given, a selection whose total exceeds MAX_TOTAL_CENTS is refused. */
  priceList?: PriceListDocument;
}

export interface ResolvedSelection {
  value?: Selection;
  error?: SelectionErrors;
}

const NNBSP = '\u202F';
const MAX_QUANTITY_TEXT = `100${NNBSP}000`;

export const SELECTION_MESSAGES = {
  noSupport: 'Choisissez au moins un support à numériser.',
  unknownSupport: (values: string[]) =>
    `${values.length > 1 ? 'Supports inconnus' : 'Support inconnu'}${NNBSP}: ${values.map((v) => `«${NNBSP}${v}${NNBSP}»`).join(', ')}.`,
  quantityRequired: 'Indiquez une quantité.',
  invalidValue: 'Valeur invalide.',
  notWhole: 'La quantité doit être un nombre entier.',
  quantityRange: `La quantité doit être comprise entre 1 et ${MAX_QUANTITY_TEXT}.`,
  reelRange: `Le nombre de bobines doit être compris entre 0 et ${MAX_QUANTITY_TEXT}.`,
  noReel: 'Indiquez au moins une bobine.',
  tooManyReels: `Au plus ${MAX_QUANTITY_TEXT} bobines par commande.`,
  unknownReelSize: (values: string[]) =>
    `Taille de bobine inconnue${NNBSP}: ${values.map((v) => `«${NNBSP}${v}${NNBSP}»`).join(', ')}.`,
  restorationNotWhole: 'Le nombre d’éléments à restaurer doit être un nombre entier.',
  restorationRange: (quantity: number) =>
    `Le nombre d’éléments à restaurer doit être compris entre 0 et la quantité (${formatCount(quantity)}).`,
  unknownQuality: 'Qualité inconnue.',
  unknownResolution: 'Résolution inconnue.',
  unknownFormat: 'Format inconnu.',
  unknownDelivery: 'Mode de livraison inconnu.',
  unknownSendMethod: 'Mode d’envoi des originaux inconnu.',
  tooExpensive: `Le montant estimé dépasse 10${NNBSP}000${NNBSP}000\u00A0€${NNBSP}: contactez-nous pour un devis sur mesure.`,
} as const;

function formatCount(n: number): string {
  return new Intl.NumberFormat('fr-FR').format(n);
}

type Text = { kind: 'absent' } | { kind: 'text'; value: string } | { kind: 'invalid' };

function own(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

/** A single text value: absent (or empty), the trimmed text, or invalid (several values, an object). */
function readText(value: unknown): Text {
  if (value === undefined || value === null) return { kind: 'absent' };
  if (typeof value !== 'string') return { kind: 'invalid' };
  const trimmed = value.trim();
  return trimmed === '' ? { kind: 'absent' } : { kind: 'text', value: trimmed };
}

type IntResult = { ok: true; value: number } | { ok: false; reason: 'notWhole' | 'range' | 'invalid' };

/** A whole number from `min` to `max`; French digit grouping ("1 000") is accepted. */
function readInteger(text: string, min: number, max: number): IntResult {
  const compact = text.replace(/[\s\u00A0\u202F]/g, '');
  if (/^[+-]?\d+$/.test(compact)) {
    const value = Number(compact);
    return value >= min && value <= max ? { ok: true, value } : { ok: false, reason: 'range' };
  }
  if (/^[+-]?(\d+[.,]\d*|[.,]\d+)$/.test(compact)) {
    // "12.0" is still twelve; "1,5" is not a whole number.
    const value = Number(compact.replace(',', '.'));
    if (Number.isInteger(value))
      return value >= min && value <= max ? { ok: true, value } : { ok: false, reason: 'range' };
    return { ok: false, reason: 'notWhole' };
  }
  return { ok: false, reason: 'invalid' };
}

function readEnum<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T | undefined {
  const text = readText(value);
  if (text.kind === 'absent') return fallback;
  if (text.kind === 'invalid') return undefined;
  return (allowed as readonly string[]).includes(text.value) ? (text.value as T) : undefined;
}

function readFlag(value: unknown): boolean {
  const text = readText(value);
  return text.kind === 'text' && ['on', 'true', '1', 'oui'].includes(text.value.toLowerCase());
}

function readSupports(value: unknown): { types: SupportType[]; unknown: string[] } {
  const values = value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];
  const chosen = new Set<SupportType>();
  const unknown: string[] = [];
  for (const raw of values) {
    const text = readText(raw);
    if (text.kind === 'absent') continue;
    if (text.kind === 'text' && (SUPPORT_TYPES as readonly string[]).includes(text.value)) {
      chosen.add(text.value as SupportType);
    } else {
      unknown.push(text.kind === 'text' ? text.value.slice(0, 40) : '?');
    }
  }
  return { types: SUPPORT_TYPES.filter((type) => chosen.has(type)), unknown };
}

/** Records a French message on a field; every reader below reports through it, in reading order. */
type Fail = (name: string, message: string) => void;

/** The message for a whole number that `readInteger` refused: out of range, or not whole. */
function integerMessage(parsed: IntResult & { ok: false }, range: string, notWhole: string): string {
  return parsed.reason === 'range' ? range : notWhole;
}

/**
 * Film: the number of reels of each size. Reel fields present (even empty, as a form sends them)
 * say how many; all absent, the ticked support keeps its default. Sizes the price list does not
 * know are reported, never ignored, so a link with a typo does not quietly price something else.
 */
function readReels(reelsInput: unknown, choice: SupportChoice, fail: Fail): void {
  const extra =
    typeof reelsInput === 'object' && reelsInput !== null && !Array.isArray(reelsInput)
      ? Object.keys(reelsInput).filter((key) => !(REEL_SIZES as readonly string[]).includes(key))
      : [];
  if (extra.length > 0) fail('film.reels', SELECTION_MESSAGES.unknownReelSize(extra.map((k) => k.slice(0, 40))));
  if (!REEL_SIZES.some((size) => own(reelsInput, size) !== undefined)) return;

  const reels: Record<ReelSize, number> = { small: 0, medium: 0, large: 0 };
  let sizeRefused = false;
  for (const size of REEL_SIZES) {
    const text = readText(own(reelsInput, size));
    if (text.kind === 'absent') continue;
    const parsed = text.kind === 'text' ? readInteger(text.value, 0, MAX_QUANTITY) : null;
    if (parsed?.ok) {
      reels[size] = parsed.value;
      continue;
    }
    sizeRefused = true;
    fail(
      `film.reels.${size}`,
      parsed
        ? integerMessage(parsed, SELECTION_MESSAGES.reelRange, SELECTION_MESSAGES.notWhole)
        : SELECTION_MESSAGES.invalidValue,
    );
  }
  const total = reels.small + reels.medium + reels.large;
  // The total is only judged when every size was readable: one message per mistake, not two.
  if (!sizeRefused) {
    if (total < MIN_QUANTITY) fail('film.reels', SELECTION_MESSAGES.noReel);
    else if (total > MAX_QUANTITY) fail('film.reels', SELECTION_MESSAGES.tooManyReels);
  }
  choice.reels = reels;
  choice.quantity = total;
}

/** Every support but film: a quantity from 1 to MAX_QUANTITY; absent keeps the default. */
function readQuantity(value: unknown, name: string, choice: SupportChoice, fail: Fail): void {
  const text = readText(value);
  if (text.kind === 'invalid') {
    fail(name, SELECTION_MESSAGES.invalidValue);
    return;
  }
  if (text.kind === 'absent') {
    // Present but empty: the visitor cleared the field.
    if (value !== undefined) fail(name, SELECTION_MESSAGES.quantityRequired);
    return;
  }
  const parsed = readInteger(text.value, MIN_QUANTITY, MAX_QUANTITY);
  if (parsed.ok) choice.quantity = parsed.value;
  else fail(name, integerMessage(parsed, SELECTION_MESSAGES.quantityRange, SELECTION_MESSAGES.notWhole));
}

/** Restorable supports: how many items to restore, from 0 to the quantity read just before. */
function readRestoration(value: unknown, name: string, choice: SupportChoice, fail: Fail): void {
  const text = readText(value);
  if (text.kind === 'absent') return;
  if (text.kind === 'invalid') {
    fail(name, SELECTION_MESSAGES.invalidValue);
    return;
  }
  const parsed = readInteger(text.value, 0, MAX_QUANTITY);
  if (!parsed.ok) {
    fail(
      name,
      integerMessage(
        parsed,
        SELECTION_MESSAGES.restorationRange(choice.quantity),
        SELECTION_MESSAGES.restorationNotWhole,
      ),
    );
  } else if (parsed.value > choice.quantity) {
    fail(name, SELECTION_MESSAGES.restorationRange(choice.quantity));
  } else {
    choice.restoration = parsed.value;
  }
}

/**
 * The choice for one ticked support, starting from its defaults. The fields are read in a fixed
 * order (amount, quality, image options, restoration, denoise) because the restoration is checked
 * against the quantity, and so the messages come out in the order of the form.
 */
function readSupportChoice(type: SupportType, fields: unknown, fail: Fail): SupportChoice {
  const field = (key: string) => own(fields, key);
  const name = (key: string) => `${type}.${key}`;
  const choice = defaultSupportChoice(type);

  if (type === 'film') readReels(field('reels'), choice, fail);
  else readQuantity(field('quantity'), name('quantity'), choice, fail);

  const quality = readEnum(field('quality'), QUALITIES, DEFAULT_QUALITY);
  if (quality) choice.quality = quality;
  else fail(name('quality'), SELECTION_MESSAGES.unknownQuality);

  if (isImageSupport(type)) {
    const resolution = readEnum(field('resolution'), RESOLUTIONS, DEFAULT_RESOLUTION);
    if (resolution) choice.resolution = resolution;
    else fail(name('resolution'), SELECTION_MESSAGES.unknownResolution);
    const format = readEnum(field('format'), FORMATS, DEFAULT_FORMAT);
    if (format) choice.format = format;
    else fail(name('format'), SELECTION_MESSAGES.unknownFormat);
  }

  if (isRestorable(type)) readRestoration(field('restoration'), name('restoration'), choice, fail);
  if (isTapeOrReel(type)) choice.denoise = readFlag(field('denoise'));
  return choice;
}

/**
 * Turns the nested payload of a form or URL (as Conform's `parse` or `payloadFromSearchParams`
 * build it) into a Selection, or French messages by field name.
 */
export function resolveSelectionPayload(
  payload: Record<string, unknown>,
  options: ResolveOptions = {},
): ResolvedSelection {
  const errors: SelectionErrors = {};
  const fail: Fail = (name, message) => {
    errors[name] = [...(errors[name] ?? []), message];
  };

  const { types, unknown } = readSupports(own(payload, 'support'));
  if (unknown.length > 0) fail('support', SELECTION_MESSAGES.unknownSupport(unknown));

  const supports = types.map((type) => readSupportChoice(type, own(payload, type), fail));

  const deliveryMethod = readEnum(own(payload, 'delivery'), DELIVERY_METHODS, 'digital');
  if (!deliveryMethod) fail('delivery', SELECTION_MESSAGES.unknownDelivery);
  const sendMethod = readEnum(own(payload, 'send'), SEND_METHODS, 'self');
  if (!sendMethod) fail('send', SELECTION_MESSAGES.unknownSendMethod);
  const returnOriginals = readFlag(own(payload, 'returnOriginals'));
  const express = readFlag(own(payload, 'express'));

  if (options.requireSupport && types.length === 0 && unknown.length === 0) fail('', SELECTION_MESSAGES.noSupport);
  if (Object.keys(errors).length > 0) return { error: errors };

  const selection: Selection = {
    supports,
    deliveryMethod: deliveryMethod ?? 'digital',
    sendMethod: sendMethod ?? 'self',
    returnOriginals,
    ...(express ? { express } : {}),
  };
  if (options.priceList && supports.length > 0) {
    const { price } = computeQuote(options.priceList, selection);
    if (price.totalPriceCents > MAX_TOTAL_CENTS) return { error: { '': [SELECTION_MESSAGES.tooExpensive] } };
  }
  return { value: selection };
}

/**
 * The nested payload of URL parameters, as Conform builds it from form data: `a.b=1` gives
 * `{ a: { b: '1' } }`, a repeated name gives an array. Only plain names are understood.
 */
export function payloadFromSearchParams(params: URLSearchParams): Record<string, unknown> {
  const payload: Record<string, unknown> = Object.create(null);
  for (const [key, value] of params) {
    const path = key.split('.');
    if (path.some((part) => part === '' || part === '__proto__' || part === 'constructor' || part === 'prototype')) {
      continue;
    }
    let node = payload;
    for (const part of path.slice(0, -1)) {
      const next = node[part];
      if (typeof next === 'object' && next !== null && !Array.isArray(next)) node = next as Record<string, unknown>;
      else {
        const created: Record<string, unknown> = Object.create(null);
        node[part] = created;
        node = created;
      }
    }
    const last = path[path.length - 1] as string;
    const existing = node[last];
    node[last] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return payload;
}

export function parseSelectionSearchParams(params: URLSearchParams, options: ResolveOptions = {}): ResolvedSelection {
  return resolveSelectionPayload(payloadFromSearchParams(params), options);
}

// ---------------------------------------------------------------------------------------------
// Selection -> URL, form values, stored JSON

/** The nested form values of a selection (every value a string, flags 'on'). */
export function selectionToPayload(selection: Selection): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    support: selection.supports.map((choice) => choice.type),
    delivery: selection.deliveryMethod,
    send: selection.sendMethod,
  };
  if (selection.returnOriginals) payload.returnOriginals = 'on';
  if (selection.express) payload.express = 'on';
  for (const choice of selection.supports) {
    const fields: Record<string, unknown> = { quality: choice.quality };
    if (choice.type === 'film' && choice.reels) {
      fields.reels = Object.fromEntries(REEL_SIZES.map((size) => [size, String(choice.reels?.[size] ?? 0)]));
    } else {
      fields.quantity = String(choice.quantity);
    }
    if (choice.resolution) fields.resolution = choice.resolution;
    if (choice.format) fields.format = choice.format;
    if (isRestorable(choice.type)) fields.restoration = String(choice.restoration);
    if (choice.denoise) fields.denoise = 'on';
    payload[choice.type] = fields;
  }
  return payload;
}

/** The shortest URL parameters that reproduce a selection (defaults left out). */
export function selectionToSearchParams(selection: Selection): URLSearchParams {
  const params = new URLSearchParams();
  for (const choice of selection.supports) {
    const t = choice.type;
    params.append('support', t);
    if (t === 'film' && choice.reels) {
      for (const size of REEL_SIZES) {
        if (choice.reels[size] > 0) params.append(`film.reels.${size}`, String(choice.reels[size]));
      }
    } else {
      params.append(`${t}.quantity`, String(choice.quantity));
    }
    if (choice.quality !== DEFAULT_QUALITY) params.append(`${t}.quality`, choice.quality);
    if (choice.resolution && choice.resolution !== DEFAULT_RESOLUTION)
      params.append(`${t}.resolution`, choice.resolution);
    if (choice.format && choice.format !== DEFAULT_FORMAT) params.append(`${t}.format`, choice.format);
    if (choice.restoration > 0) params.append(`${t}.restoration`, String(choice.restoration));
    if (choice.denoise) params.append(`${t}.denoise`, 'on');
  }
  if (selection.deliveryMethod !== 'digital') params.append('delivery', selection.deliveryMethod);
  if (selection.sendMethod !== 'self') params.append('send', selection.sendMethod);
  if (selection.returnOriginals) params.append('returnOriginals', 'on');
  if (selection.express) params.append('express', 'on');
  return params;
}

/** The shape of a stored selection (quotes.selection); its rules are checked by parseStoredSelection. */
const storedSelectionSchema = z.object({
  supports: z
    .array(
      z.object({
        type: z.string(),
        quantity: z.number(),
        reels: z.record(z.string(), z.number()).nullable(),
        quality: z.string(),
        resolution: z.string().nullable(),
        format: z.string().nullable(),
        restoration: z.number(),
        denoise: z.boolean(),
      }),
    )
    .max(SUPPORT_TYPES.length),
  deliveryMethod: z.string(),
  sendMethod: z.string(),
  returnOriginals: z.boolean(),
  express: z.boolean().optional(),
});

/**
 * A selection read back from storage, checked by the same rules as a form (a quote saved before a
 * rule changed is refused rather than priced wrongly). Null when it no longer passes.
 */
export function parseStoredSelection(value: unknown): Selection | null {
  const shape = storedSelectionSchema.safeParse(value);
  if (!shape.success) return null;
  const resolved = resolveSelectionPayload(selectionToPayload(shape.data as Selection), { requireSupport: true });
  return resolved.value ?? null;
}
