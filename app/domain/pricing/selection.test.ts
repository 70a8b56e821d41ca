import { parse } from '@conform-to/react';
import { describe, expect, it } from 'vitest';
import { buildDocumentLines } from '../invoices/snapshot';
import { DEFAULT_PRICE_LIST } from './default-price-list';
import { emailItems, expressOptionTitle, extraLines, standardTurnaroundSentence } from './labels';
import { parsePriceListDocument } from './price-list-schema';
import { ORDER_EXTRA_KEYS, pickPriceFields } from './pricing';
import {
  computeQuote,
  EMPTY_SELECTION,
  SELECTION_MESSAGES as M,
  parseSelectionSearchParams,
  parseStoredSelection,
  payloadFromSearchParams,
  resolveSelectionPayload,
  type Selection,
  selectionToPayload,
  selectionToSearchParams,
} from './selection';

const list = DEFAULT_PRICE_LIST;
const N = '\u202F';

const example =
  'support=photos&photos.quantity=100&photos.resolution=4800dpi&photos.format=tif' +
  '&support=film&film.reels.medium=2&delivery=usb&send=label&returnOriginals=on';

function parsed(query: string, options = {}) {
  return parseSelectionSearchParams(new URLSearchParams(query), options);
}

describe('a selection from a URL', () => {
  it('reads the documented example', () => {
    const { value, error } = parsed(example);
    expect(error).toBeUndefined();
    expect(value).toEqual({
      supports: [
        {
          type: 'photos',
          quantity: 100,
          reels: null,
          quality: 'standard',
          resolution: '4800dpi',
          format: 'tif',
          restoration: 0,
          denoise: false,
        },
        {
          type: 'film',
          quantity: 2,
          reels: { small: 0, medium: 2, large: 0 },
          quality: 'standard',
          resolution: null,
          format: null,
          restoration: 0,
          denoise: false,
        },
      ],
      deliveryMethod: 'usb',
      sendMethod: 'label',
      returnOriginals: true,
    } satisfies Selection);
    // 58,36 + 50 + 15,90 + 9,90 + 12,90
    expect(computeQuote(list, value!).price.totalPriceCents).toBe(14_706);
  });

  it('gives back the same selection from its own URL (a link reproduces the estimate)', () => {
    const { value } = parsed(`${example}&support=vhs&vhs.quantity=3&vhs.quality=premium&vhs.denoise=on`);
    const again = parsed(selectionToSearchParams(value!).toString());
    expect(again.value).toEqual(value);
    expect(selectionToSearchParams(value!).toString()).toBe(
      'support=photos&photos.quantity=100&photos.resolution=4800dpi&photos.format=tif' +
        '&support=vhs&vhs.quantity=3&vhs.quality=premium&vhs.denoise=on' +
        '&support=film&film.reels.medium=2&delivery=usb&send=label&returnOriginals=on',
    );
  });

  it('builds the same payload as Conform does from the form data', () => {
    const params = new URLSearchParams(`${example}&photos.restoration=2&support=vhs-c&vhs-c.quantity=1`);
    const fromConform = parse(params, { resolve: (payload) => ({ value: payload }) }).payload;
    expect(JSON.parse(JSON.stringify(payloadFromSearchParams(params)))).toEqual(fromConform);
  });

  it('uses the defaults for what a hand-written link leaves out', () => {
    expect(parsed('support=photos&support=film').value?.supports.map((s) => [s.type, s.quantity])).toEqual([
      ['photos', 100],
      ['film', 1],
    ]);
    expect(parsed('').value).toEqual(EMPTY_SELECTION);
  });

  it('ignores forged prices and options that do not apply to a support', () => {
    const honest = parsed('support=photos&photos.quantity=100&support=vhs&vhs.quantity=2');
    const forged = parsed(
      'support=photos&photos.quantity=100&support=vhs&vhs.quantity=2&totalPrice=1&total_price=1' +
        '&basePrice=0&photos.unitPrice=0&photos.basePrice=0&vhs.resolution=4800dpi&vhs.format=tif' +
        '&vhs.restoration=2&photos.denoise=on&film.reels.small=3&deliveryCost=0&__proto__.x=1',
    );
    expect(forged.error).toBeUndefined();
    expect(forged.value).toEqual(honest.value);
    expect(computeQuote(list, forged.value!).price.totalPriceCents).toBe(3500 + 3400);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it.each<[string, string, string, string]>([
    ['an unknown support', 'support=cassettes-audio', 'support', M.unknownSupport(['cassettes-audio'])],
    ['a quantity of zero', 'support=photos&photos.quantity=0', 'photos.quantity', M.quantityRange],
    ['a negative quantity', 'support=photos&photos.quantity=-4', 'photos.quantity', M.quantityRange],
    ['a quantity above 100 000', 'support=photos&photos.quantity=100001', 'photos.quantity', M.quantityRange],
    ['a huge quantity', 'support=vhs&vhs.quantity=1e400', 'vhs.quantity', M.notWhole],
    ['a decimal quantity', 'support=photos&photos.quantity=1.5', 'photos.quantity', M.notWhole],
    ['a decimal comma', 'support=photos&photos.quantity=1,5', 'photos.quantity', M.notWhole],
    ['letters', 'support=photos&photos.quantity=beaucoup', 'photos.quantity', M.notWhole],
    ['an empty quantity', 'support=photos&photos.quantity=', 'photos.quantity', M.quantityRequired],
    ['two quantities', 'support=photos&photos.quantity=1&photos.quantity=2', 'photos.quantity', M.invalidValue],
    ['an unknown quality', 'support=photos&photos.quality=luxe', 'photos.quality', M.unknownQuality],
    ['an unknown resolution', 'support=photos&photos.resolution=9600dpi', 'photos.resolution', M.unknownResolution],
    ['an unknown format', 'support=slides&slides.format=png', 'slides.format', M.unknownFormat],
    ['an unknown reel size', 'support=film&film.reels.huge=2', 'film.reels', M.unknownReelSize(['huge'])],
    ['no reel at all', 'support=film&film.reels.small=0&film.reels.medium=', 'film.reels', M.noReel],
    ['a negative reel count', 'support=film&film.reels.small=-1', 'film.reels.small', M.reelRange],
    ['too many reels', 'support=film&film.reels.small=60000&film.reels.large=60000', 'film.reels', M.tooManyReels],
    [
      'more restorations than photos',
      'support=photos&photos.quantity=100&photos.restoration=101',
      'photos.restoration',
      M.restorationRange(100),
    ],
    ['a fractional restoration', 'support=photos&photos.restoration=0.5', 'photos.restoration', M.restorationNotWhole],
    ['an unknown delivery', 'support=vhs&delivery=pigeon', 'delivery', M.unknownDelivery],
    ['an unknown sending method', 'support=vhs&send=drone', 'send', M.unknownSendMethod],
  ])('refuses %s with a French message', (_name, query, field, message) => {
    const result = parsed(query);
    expect(result.value).toBeUndefined();
    expect(result.error?.[field]).toEqual([message]);
  });

  it('writes French messages with French typography', () => {
    expect(M.quantityRange).toBe(`La quantité doit être comprise entre 1 et 100${N}000.`);
    expect(M.unknownSupport(['x'])).toBe(`Support inconnu${N}: «${N}x${N}».`);
    expect(M.restorationRange(1200)).toContain(`1${N}200`);
  });

  it('accepts French digit grouping', () => {
    expect(parsed('support=photos&photos.quantity=1%C2%A0000').value?.supports[0]?.quantity).toBe(1000);
    expect(parsed('support=photos&photos.quantity=12.0').value?.supports[0]?.quantity).toBe(12);
  });

  it('asks for a support before saving or ordering, not for an estimate', () => {
    expect(parsed('delivery=usb').value?.supports).toEqual([]);
    expect(parsed('delivery=usb', { requireSupport: true }).error).toEqual({ '': [M.noSupport] });
  });

  it('refuses an order too large to be priced online', () => {
    const query =
      'support=vhs&vhs.quantity=100000&vhs.quality=premium&vhs.denoise=on' +
      '&support=vhs-c&vhs-c.quantity=100000&vhs-c.quality=premium&vhs-c.denoise=on' +
      '&support=minidv&minidv.quantity=100000&minidv.quality=premium&minidv.denoise=on' +
      '&support=film&film.reels.large=100000&film.quality=premium&film.denoise=on';
    expect(parsed(query).value).toBeDefined();
    expect(parsed(query, { priceList: list }).error).toEqual({ '': [M.tooExpensive] });
  });

  it('never throws, whatever the payload', () => {
    const payloads: Record<string, unknown>[] = [
      { support: { a: 1 } },
      { support: [null, 3, 'photos'], photos: 'x' },
      { support: 'film', film: { reels: 'lots' } },
      { support: 'film', film: { reels: { small: ['1', '2'] } } },
      { support: 'photos', photos: { quantity: { n: 1 }, restoration: [] } },
      { delivery: ['usb', 'disc'], send: {}, returnOriginals: ['on'] },
    ];
    for (const payload of payloads) expect(() => resolveSelectionPayload(payload)).not.toThrow();
  });
});

describe('a stored selection', () => {
  it('comes back as it was saved', () => {
    const { value } = parsed(example);
    expect(parseStoredSelection(JSON.parse(JSON.stringify(value)))).toEqual(value);
    expect(resolveSelectionPayload(selectionToPayload(value!)).value).toEqual(value);
  });

  it('is refused when it breaks a rule or is not a selection', () => {
    const { value } = parsed(example);
    expect(parseStoredSelection({ ...value, deliveryMethod: 'pigeon' })).toBeNull();
    expect(parseStoredSelection({ ...value, supports: [] })).toBeNull();
    expect(parseStoredSelection('support=photos')).toBeNull();
    expect(parseStoredSelection(null)).toBeNull();
  });
});

describe('labels and documents', () => {
  const { value } = parsed(`${example}&photos.restoration=2&support=vhs&vhs.quantity=2&vhs.denoise=on`);
  const quote = computeQuote(list, value!);

  it('lists the extras with French labels', () => {
    expect(extraLines(quote.price, value!)).toEqual([
      { label: 'Livraison — Clé USB', totalCents: 1590 },
      { label: 'Étiquette d’envoi prépayée', totalCents: 990 },
      { label: 'Retour de vos originaux', totalCents: 1290 },
    ]);
  });

  // The invoice's lines (domain/invoices/snapshot.ts) of the order this selection makes.
  it('makes document lines with quantity x unit = total, adding up to the order', () => {
    const lines = buildDocumentLines(
      {
        id: 'quote',
        number: 'quote',
        createdAt: 0,
        deliveryMethod: value!.deliveryMethod,
        ...pickPriceFields(quote.price, [...ORDER_EXTRA_KEYS, 'totalPriceCents']),
        items: quote.lines,
      },
      list,
    );
    for (const line of lines) expect(line.quantity * line.unitPriceCents).toBe(line.totalCents);
    expect(lines.reduce((sum, line) => sum + line.totalCents, 0)).toBe(quote.price.totalPriceCents);
    // 58,3625 cents a photo: the line is one lot.
    expect(lines[0]).toMatchObject({
      detail: 'Lot de 100\u00A0photos · Qualité standard, 4800\u00A0dpi, TIFF',
      quantity: 1,
      unitPriceCents: 5836,
      totalCents: 5836,
    });
    expect(lines.find((line) => line.label.startsWith('Cassettes VHS'))).toMatchObject({
      quantity: 2,
      unitPriceCents: 1700,
    });
  });

  it('gives e-mail items with each line’s amount', () => {
    expect(emailItems(list, quote.lines).map((item) => item.totalCents)).toEqual(
      quote.lines.map((line) => line.lineTotalCents),
    );
  });
});

describe('the price list schema', () => {
  it('accepts the default price list', () => {
    expect(parsePriceListDocument(DEFAULT_PRICE_LIST)).toEqual({ ok: true, document: DEFAULT_PRICE_LIST });
  });

  it.each<[string, (doc: typeof DEFAULT_PRICE_LIST) => void, string]>([
    ['a missing support', (doc) => delete (doc.supports as Partial<typeof doc.supports>).minidv, 'supports.minidv'],
    ['a price in euros', (doc) => (doc.supports.photos.basePrice = 0.35), 'supports.photos.basePrice'],
    ['a negative price', (doc) => (doc.deliveryCosts.usb = -1), 'deliveryCosts.usb'],
    ['a multiplier below 1', (doc) => (doc.resolutionMultipliers['3600dpi'] = 0.9), 'resolutionMultipliers.3600dpi'],
    ['too many decimals', (doc) => (doc.formatOptions.tif.multiplier = 1.123456), 'formatOptions.tif.multiplier'],
    ['a text price', (doc) => ((doc as unknown as { denoisePrice: string }).denoisePrice = '5'), 'denoisePrice'],
  ])('refuses %s', (_name, change, path) => {
    const doc = structuredClone(DEFAULT_PRICE_LIST);
    change(doc);
    const result = parsePriceListDocument(doc);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((issue) => issue.path)).toContain(path);
  });
});

describe('the express turnaround', () => {
  it('travels through the URL, the stored selection and the estimate, priced from the list', () => {
    const { value } = parseSelectionSearchParams(new URLSearchParams('support=photos&photos.quantity=100&express=on'));
    expect(value?.express).toBe(true);
    const selection = value as Selection;
    expect(selectionToSearchParams(selection).get('express')).toBe('on');
    expect(parseStoredSelection(JSON.parse(JSON.stringify(selection)))?.express).toBe(true);
    const { price } = computeQuote(DEFAULT_PRICE_LIST, selection);
    expect(price.expressPriceCents).toBe(DEFAULT_PRICE_LIST.turnaround.expressPrice);
    expect(price.totalPriceCents).toBe(3500 + DEFAULT_PRICE_LIST.turnaround.expressPrice);
    expect(extraLines(price, selection).map((l) => l.label)).toContain('Traitement express');
  });

  it('is standard when not asked for, and in selections saved before it existed', () => {
    const { value } = parseSelectionSearchParams(new URLSearchParams('support=photos'));
    expect(value?.express).toBeUndefined();
    expect(computeQuote(DEFAULT_PRICE_LIST, value as Selection).price.expressPriceCents).toBe(0);
    const old = { ...EMPTY_SELECTION, supports: (value as Selection).supports };
    expect(parseStoredSelection(old)?.express).toBeUndefined();
  });

  it('is named with the list’s express delay and states the standard one', () => {
    expect(expressOptionTitle(DEFAULT_PRICE_LIST)).toBe('Traitement express (48\u00A0h ouvrées après réception)');
    expect(standardTurnaroundSentence(DEFAULT_PRICE_LIST)).toContain('15\u00A0jours ouvrés');
  });
});
