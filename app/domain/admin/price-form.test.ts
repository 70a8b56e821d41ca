import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '../pricing/default-price-list';
import { parsePriceListDocument } from '../pricing/price-list-schema';
import {
  applyPriceForm,
  createPriceFormSchema,
  decidePriceUpdate,
  fieldValue,
  largeChangeSentence,
  PRICE_FORM_MESSAGES as M,
  type PriceFieldKind,
  parsePriceEntry,
  priceChanges,
  priceTabs,
} from './price-form';

const NBSP = '\u00A0';
const NNBSP = '\u202F';

function withPrices(edit: (list: PriceListDocument) => void): PriceListDocument {
  const list = structuredClone(DEFAULT_PRICE_LIST);
  edit(list);
  return list;
}

describe('the Tarifs form', () => {
  it('has the original sub-tabs and ours, covering every price of the list', () => {
    const tabs = priceTabs(DEFAULT_PRICE_LIST);
    expect(tabs.map((t) => t.label)).toEqual([
      'Supports',
      'Bobines',
      'Résolution',
      'Format',
      'Livraison',
      'Options et envois',
      'Délais et assurance',
      'Copies et conservation',
      'Sélection client',
      'Cartes cadeaux',
    ]);
    // « Sélection client »: one yes/no per support (preview and keep), its period and its share.
    // « Cartes cadeaux »: the least and the most a card may be bought for, and its validity.
    expect(tabs.flatMap((t) => t.fields)).toHaveLength(11 + 3 + 3 + 2 + 3 + 6 + 5 + 4 + 11 + 2 + 3);
  });

  it('shows euros with two decimals and coefficients as they are, with a decimal comma', () => {
    const [supports, , resolution] = priceTabs(DEFAULT_PRICE_LIST);
    expect(fieldValue(DEFAULT_PRICE_LIST, supports!.fields[0]!)).toBe('0,35');
    expect(fieldValue(DEFAULT_PRICE_LIST, resolution!.fields[2]!)).toBe('1,45');
  });
});

describe('the preview-and-keep entries', () => {
  it('read « Oui / Non » and a whole percentage, and publish a change without a second confirmation', () => {
    expect(parsePriceEntry('1', 'flag')).toEqual({ ok: true, value: 1 });
    expect(parsePriceEntry('oui', 'flag')).toEqual({ ok: false, error: 'Choisissez oui ou non' });
    expect(parsePriceEntry('25 %', 'percent')).toEqual({ ok: true, value: 25 });
    expect(parsePriceEntry('120', 'percent')).toEqual({ ok: false, error: 'Un pourcentage va de 0 à 100' });
    const applied = applyPriceForm(DEFAULT_PRICE_LIST, {
      'previewAndKeep.supports.photos': '1',
      'previewAndKeep.maxDropPercent': '30',
    });
    expect(applied.errors).toEqual({});
    expect(applied.document.previewAndKeep.supports.photos).toBe(true);
    expect(applied.document.previewAndKeep.maxDropPercent).toBe(30);
    const changes = priceChanges(DEFAULT_PRICE_LIST, applied.document);
    expect(changes.map((change) => [change.label, change.changeText, change.large])).toEqual([
      ['Photos papier', 'activé', false],
      ['Part retirable', '+50\u00A0%', false],
    ]);
  });
});

describe('reading a typed price', () => {
  it.each<[string, PriceFieldKind, number | string]>([
    // A comma and a point mean the same: « 0,39 » is 39 cents, never 39 €.
    ['0,39', 'euros', 39],
    ['0.39', 'euros', 39],
    [' 0,39 ', 'euros', 39],
    ['0,39 €', 'euros', 39],
    ['0,39€', 'euros', 39],
    ['39', 'euros', 3900],
    ['12,5', 'euros', 1250],
    ['12,', 'euros', 1200],
    [',5', 'euros', 50],
    ['1 234,50', 'euros', 123_450],
    [`1${NNBSP}234,50`, 'euros', 123_450],
    [`1${NBSP}234.50`, 'euros', 123_450],
    ['0', 'euros', 0],
    ['+2', 'euros', 200],
    ['100000', 'euros', 10_000_000],
    ['1,5', 'multiplier', 1.5],
    ['1.5', 'multiplier', 1.5],
    ['1,4567', 'multiplier', 1.4567],
    ['10', 'multiplier', 10],
    ['', 'euros', M.eurosEmpty],
    ['   ', 'euros', M.eurosEmpty],
    ['', 'multiplier', M.multiplierEmpty],
    ['abc', 'euros', M.eurosNotANumber],
    ['dix-sept', 'euros', M.eurosNotANumber],
    ['1,2,3', 'euros', M.eurosNotANumber],
    ['1.234,50', 'euros', M.eurosNotANumber],
    ['12.5.1', 'euros', M.eurosNotANumber],
    ['1e3', 'euros', M.eurosNotANumber],
    ['Infinity', 'euros', M.eurosNotANumber],
    ['0x10', 'euros', M.eurosNotANumber],
    [',', 'euros', M.eurosNotANumber],
    ['€', 'euros', M.eurosEmpty],
    ['1,5 €', 'multiplier', M.multiplierNotANumber],
    ['abc', 'multiplier', M.multiplierNotANumber],
    ['-1', 'euros', M.eurosMin],
    ['−0,39', 'euros', M.eurosMin],
    ['0,9', 'multiplier', M.multiplierMin],
    ['-2', 'multiplier', M.multiplierMin],
    ['0,395', 'euros', M.eurosDecimals],
    ['1,23456', 'multiplier', M.multiplierDecimals],
    ['100000,01', 'euros', M.eurosMax],
    ['10,5', 'multiplier', M.multiplierMax],
  ])('reads %j (%s) as %j', (text, kind, expected) => {
    expect(parsePriceEntry(text, kind)).toEqual(
      typeof expected === 'number' ? { ok: true, value: expected } : { ok: false, error: expected },
    );
  });

  it('writes its refusals in French, with no-break spaces in amounts', () => {
    expect(M.eurosMax).toBe(`Un montant vaut au plus 100${NNBSP}000,00${NBSP}€`);
    expect(M.unchanged).toMatch(new RegExp(`^Aucun changement${NBSP}:`));
  });
});

describe('applying the form', () => {
  it('converts euros to cents and keeps a field the form did not send; refused entries change nothing', () => {
    const result = applyPriceForm(DEFAULT_PRICE_LIST, {
      'supports.photos.basePrice': '0,42',
      'supports.vhs.basePrice': 'dix-sept',
      'supports.slides.basePrice': '',
      'filmReelPricing.large.price': '-1',
      'resolutionMultipliers.4800dpi': '1.5',
      'formatOptions.tif.multiplier': '0.9',
      'deliveryCosts.usb': '19.99',
      restorationPrice: '12',
    });
    expect(result.document.supports.photos.basePrice).toBe(42);
    expect(result.document.supports.vhs.basePrice).toBe(DEFAULT_PRICE_LIST.supports.vhs.basePrice);
    expect(result.document.supports.negatives.basePrice).toBe(DEFAULT_PRICE_LIST.supports.negatives.basePrice);
    expect(result.errors).toEqual({
      'supports.vhs.basePrice': M.eurosNotANumber,
      'supports.slides.basePrice': M.eurosEmpty,
      'filmReelPricing.large.price': M.eurosMin,
      'formatOptions.tif.multiplier': M.multiplierMin,
    });
    expect(result.document.resolutionMultipliers['4800dpi']).toBe(1.5);
    expect(result.document.deliveryCosts.usb).toBe(1999);
    expect(result.document.restorationPrice).toBe(1200);
    // The current list is not changed.
    expect(DEFAULT_PRICE_LIST.supports.photos.basePrice).toBe(35);
  });
});

describe('the summary of the changes', () => {
  const photos = (cents: number) =>
    withPrices((l) => {
      l.supports.photos.basePrice = cents;
    });

  it.each<[string, PriceListDocument, Partial<ReturnType<typeof priceChanges>[number]>]>([
    [
      '0,35 € → 0,39 €',
      photos(39),
      { beforeText: `0,35${NBSP}€`, afterText: `0,39${NBSP}€`, changeText: `+11,4${NBSP}%`, large: false },
    ],
    ['a decrease', photos(28), { afterText: `0,28${NBSP}€`, changeText: `−20${NBSP}%`, large: false }],
    ['×3 exactly', photos(105), { changeText: `+200${NBSP}%`, large: false }],
    ['just beyond ×3', photos(106), { large: true }],
    [
      'just within ÷3',
      withPrices((l) => {
        l.supports.vhs.basePrice = 567;
      }),
      { large: false },
    ],
    [
      'just beyond ÷3',
      withPrices((l) => {
        l.supports.vhs.basePrice = 566;
      }),
      { large: true },
    ],
    [
      '0,35 € → 39,00 €',
      photos(3900),
      { afterText: `39,00${NBSP}€`, changeText: `+11${NNBSP}042,9${NBSP}%`, large: true },
    ],
    ['down to zero', photos(0), { afterText: `0,00${NBSP}€`, changeText: 'désormais gratuit', large: true }],
    [
      'a coefficient',
      withPrices((l) => {
        l.resolutionMultipliers['4800dpi'] = 1.6;
      }),
      {
        section: 'Résolution',
        label: `4800${NBSP}dpi`,
        beforeText: '1,45',
        afterText: '1,6',
        changeText: `+10,3${NBSP}%`,
      },
    ],
  ])('%s', (_what, next, expected) => {
    const changes = priceChanges(DEFAULT_PRICE_LIST, next);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject(expected);
  });

  it('lists every changed entry, in the form’s order, with its sub-tab and label', () => {
    const next = withPrices((l) => {
      l.deliveryCosts.digital = 500;
      l.supports.photos.basePrice = 39;
    });
    const changes = priceChanges(DEFAULT_PRICE_LIST, next);
    expect(changes.map((c) => [c.section, c.label])).toEqual([
      ['Supports', 'Photos papier'],
      ['Livraison', 'Téléchargement sécurisé'],
    ]);
    // Free delivery becoming paid is a large change too.
    expect(changes[1]).toMatchObject({ changeText: 'auparavant gratuit', large: true });
    expect(priceChanges(DEFAULT_PRICE_LIST, structuredClone(DEFAULT_PRICE_LIST))).toEqual([]);
  });

  it.each<[string, PriceListDocument, string]>([
    [
      'up',
      photos(3900),
      `Le prix «${NNBSP}Photos papier${NNBSP}» (Supports) passe de 0,35${NBSP}€ à 39,00${NBSP}€ (×111).`,
    ],
    [
      'down',
      photos(7),
      `Le prix «${NNBSP}Photos papier${NNBSP}» (Supports) passe de 0,35${NBSP}€ à 0,07${NBSP}€ (÷5).`,
    ],
    [
      'a coefficient',
      withPrices((l) => {
        l.resolutionMultipliers['2400dpi'] = 3.5;
      }),
      `Le coefficient «${NNBSP}2400${NBSP}dpi${NNBSP}» (Résolution) passe de 1 à 3,5 (×3,5).`,
    ],
  ])('names a large change (%s) in the second confirmation', (_what, next, sentence) => {
    const [change] = priceChanges(DEFAULT_PRICE_LIST, next);
    expect(largeChangeSentence(change!)).toBe(sentence);
  });
});

describe('deciding on a posted update', () => {
  const photos = 'supports.photos.basePrice';
  const schema = createPriceFormSchema(DEFAULT_PRICE_LIST);
  /** A post as the browser sends it, read as the action reads it (Conform nests the dotted names). */
  const posted = (entries: Record<string, string>) =>
    parseWithZod(new URLSearchParams(entries), { schema, disableAutoCoercion: true });
  const decide = (entries: Record<string, string>) => {
    const submission = posted(entries);
    if (submission.status !== 'success') throw new Error('refused');
    return decidePriceUpdate(DEFAULT_PRICE_LIST, submission.value);
  };

  it('refuses a wrong entry on its field, and an empty one, but keeps a price not sent', () => {
    const refused = posted({ [photos]: '0,3,9', 'supports.slides.basePrice': '', confirmed: '1' });
    expect(refused.status !== 'success' && refused.error).toEqual({
      [photos]: [M.eurosNotANumber],
      'supports.slides.basePrice': [M.eurosEmpty],
    });
    const kept = posted({ 'resolutionMultipliers.4800dpi': '1,5' });
    expect(kept.status === 'success' && kept.value.document.supports.photos.basePrice).toBe(35);
  });

  it.each<[string, Record<string, string>, string]>([
    ['the same prices', { [photos]: '0,35', confirmed: '1' }, 'unchanged'],
    ['a change without confirmation', { [photos]: '0,39' }, 'unconfirmed'],
    ['a change with a wrong confirmation', { [photos]: '0,39', confirmed: 'true' }, 'unconfirmed'],
    ['a confirmed change', { [photos]: '0,39', confirmed: '1' }, 'publish'],
    ['a ×111 change confirmed once', { [photos]: '39', confirmed: '1' }, 'large-unconfirmed'],
    ['a ×111 change confirmed only as large', { [photos]: '39', confirmedLargeChange: '1' }, 'unconfirmed'],
    ['a ×111 change confirmed twice', { [photos]: '39', confirmed: '1', confirmedLargeChange: '1' }, 'publish'],
  ])('%s', (_what, entries, kind) => {
    expect(decide(entries).kind).toBe(kind);
  });

  it('publishes the parsed document: « 0,39 » is 39 cents', () => {
    const decision = decide({ [photos]: '0,39', confirmed: '1' });
    expect(decision.kind === 'publish' && decision.document.supports.photos.basePrice).toBe(39);
  });
});

describe('the turnaround and insurance entries', () => {
  const list = DEFAULT_PRICE_LIST;

  it('reads whole working days and refuses the rest in French', () => {
    expect(parsePriceEntry('10', 'days')).toEqual({ ok: true, value: 10 });
    expect(parsePriceEntry(' 2 jours', 'days')).toEqual({ ok: true, value: 2 });
    expect(parsePriceEntry('2,5', 'days')).toEqual({ ok: false, error: M.daysNotANumber });
    expect(parsePriceEntry('0', 'days')).toEqual({ ok: false, error: M.daysRange });
    expect(parsePriceEntry('121', 'days')).toEqual({ ok: false, error: M.daysRange });
  });

  it('edits the express delay and price, and refuses an express delay not shorter than the standard one', () => {
    const applied = applyPriceForm(list, { 'turnaround.expressDays': '3', 'turnaround.expressPrice': '24,90' });
    expect(applied.errors).toEqual({});
    expect(applied.document.turnaround).toMatchObject({ expressDays: 3, expressPrice: 2490 });
    const refused = applyPriceForm(list, { 'turnaround.expressDays': String(list.turnaround.standardDays) });
    expect(refused.errors).toEqual({ 'turnaround.expressDays': M.expressNotShorter });
    const low = applyPriceForm(list, { 'insurance.maxValue': '50' });
    expect(low.errors).toEqual({ 'insurance.maxValue': M.insuranceMaxTooLow });
  });

  it('names a changed delay in days in the summary', () => {
    const next = applyPriceForm(list, { 'turnaround.expressDays': '1' }).document;
    const [change] = priceChanges(list, next);
    expect(change).toMatchObject({ section: 'Délais et assurance', label: 'Délai express', afterText: '1\u00A0jour' });
  });
});

describe('the gift card entries', () => {
  const list = DEFAULT_PRICE_LIST;
  const min = 'giftCards.minPrice';
  const max = 'giftCards.maxPrice';
  const months = 'giftCards.validityMonths';

  it('show the bounds in euros and the validity in months', () => {
    const tab = priceTabs(list).find((t) => t.label === 'Cartes cadeaux');
    expect(tab?.fields.map((f) => [f.label, fieldValue(list, f)])).toEqual([
      ['Montant minimal', '20,00'],
      ['Montant maximal', '500,00'],
      ['Validité', '12'],
    ]);
  });

  it('read whole months from 1 to 24 and refuse the rest in French', () => {
    expect(parsePriceEntry('18', 'months')).toEqual({ ok: true, value: 18 });
    expect(parsePriceEntry(' 6 mois', 'months')).toEqual({ ok: true, value: 6 });
    expect(parsePriceEntry('24', 'months')).toEqual({ ok: true, value: 24 });
    expect(parsePriceEntry('', 'months')).toEqual({ ok: false, error: M.monthsNotANumber });
    expect(parsePriceEntry('1,5', 'months')).toEqual({ ok: false, error: M.monthsNotANumber });
    expect(parsePriceEntry('0', 'months')).toEqual({ ok: false, error: M.monthsRange });
    expect(parsePriceEntry('25', 'months')).toEqual({ ok: false, error: M.monthsRange });
    expect(parsePriceEntry('36', 'months')).toEqual({ ok: false, error: M.monthsRange });
    expect(M.monthsRange).toBe(`Une carte cadeau est valable de 1 à 24${NBSP}mois`);
  });

  it('publish new bounds and validity, in cents and months', () => {
    const applied = applyPriceForm(list, { [min]: '10', [max]: '300,50', [months]: '18' });
    expect(applied.errors).toEqual({});
    expect(applied.document.giftCards).toEqual({ minPrice: 1000, maxPrice: 30_050, validityMonths: 18 });
    expect(priceChanges(list, applied.document).map((c) => [c.section, c.label, c.beforeText, c.afterText])).toEqual([
      ['Cartes cadeaux', 'Montant minimal', `20,00${NBSP}€`, `10,00${NBSP}€`],
      ['Cartes cadeaux', 'Montant maximal', `500,00${NBSP}€`, `300,50${NBSP}€`],
      ['Cartes cadeaux', 'Validité', `12${NBSP}mois`, `18${NBSP}mois`],
    ]);
  });

  it('refuse a minimum under 1 €, a maximum over 5 000 € or under the minimum, on the field to change', () => {
    expect(applyPriceForm(list, { [min]: '0,99' }).errors).toEqual({ [min]: M.giftCardMinTooLow });
    expect(M.giftCardMinTooLow).toBe(`Une carte cadeau vaut au moins 1,00${NBSP}€`);
    expect(applyPriceForm(list, { [min]: '1' }).errors).toEqual({});
    expect(applyPriceForm(list, { [max]: '5000,01' }).errors).toEqual({ [max]: M.giftCardMaxTooHigh });
    expect(M.giftCardMaxTooHigh).toBe(`Une carte cadeau vaut au plus 5${NNBSP}000,00${NBSP}€`);
    expect(applyPriceForm(list, { [max]: '5000' }).errors).toEqual({});
    expect(applyPriceForm(list, { [max]: '19,99' }).errors).toEqual({ [max]: M.giftCardMaxBelowMin });
    expect(applyPriceForm(list, { [min]: '600' }).errors).toEqual({ [max]: M.giftCardMaxBelowMin });
    // Equal bounds are one amount: allowed.
    expect(applyPriceForm(list, { [min]: '50', [max]: '50' }).errors).toEqual({});
    // A refused minimum is not compared with the maximum.
    expect(applyPriceForm(list, { [min]: 'abc', [max]: '10' }).errors).toEqual({ [min]: M.eurosNotANumber });
  });

  it('refuse them on the server as in the browser, and name a large change of validity in months', () => {
    const schema = createPriceFormSchema(list);
    const refused = parseWithZod(new URLSearchParams({ [max]: '6000', [months]: '36', confirmed: '1' }), {
      schema,
      disableAutoCoercion: true,
    });
    expect(refused.status !== 'success' && refused.error).toEqual({
      [max]: [M.giftCardMaxTooHigh],
      [months]: [M.monthsRange],
    });
    const next = applyPriceForm(list, { [months]: '1' }).document;
    const [change] = priceChanges(list, next);
    expect(change?.large).toBe(true);
    expect(change && largeChangeSentence(change)).toBe(
      `La durée «${NNBSP}Validité${NNBSP}» (Cartes cadeaux) passe de 12${NBSP}mois à 1${NBSP}mois (÷12).`,
    );
  });

  it('are what the price list schema accepts: the bounds of the form and of a published list agree', () => {
    const parse = (giftCards: PriceListDocument['giftCards']) => parsePriceListDocument({ ...list, giftCards }).ok;
    expect(parse({ minPrice: 100, maxPrice: 500_000, validityMonths: 24 })).toBe(true);
    expect(parse({ minPrice: 99, maxPrice: 500_000, validityMonths: 24 })).toBe(false);
    expect(parse({ minPrice: 100, maxPrice: 500_001, validityMonths: 24 })).toBe(false);
    expect(parse({ minPrice: 100, maxPrice: 500_000, validityMonths: 25 })).toBe(false);
    expect(parse({ minPrice: 100, maxPrice: 500_000, validityMonths: 0 })).toBe(false);
    expect(parse({ minPrice: 2000, maxPrice: 1999, validityMonths: 12 })).toBe(false);
  });
});
