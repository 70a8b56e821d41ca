import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '../pricing/default-price-list';
import { getServiceEntry, SERVICE_CATALOGUE } from '../services';
import {
  CUSTOM_QUOTE,
  deliveryPrices,
  fillPricePlaceholders,
  lowestReelCents,
  multiplierLabel,
  PRICE_ON_REQUEST,
  priceOptionGroups,
  servicePrice,
} from './service-prices';

const NBSP = '\u00A0';
const NNBSP = '\u202F';
const eur = (text: string) => text.replace(/ €/g, `${NBSP}€`);

function withChanges(change: (list: PriceListDocument) => void): PriceListDocument {
  const copy = structuredClone(DEFAULT_PRICE_LIST);
  change(copy);
  return copy;
}

describe('servicePrice', () => {
  it.each([
    ['photos', 'À partir de 0,35 € par photo', 35],
    ['slides', 'À partir de 0,45 € par diapositive', 45],
    ['ektachromes', 'À partir de 0,50 € par ektachrome', 50],
    ['negatives', 'À partir de 0,40 € par négatif', 40],
    ['plaques-de-verre', 'À partir de 2,50 € par plaque', 250],
    ['vhs', 'À partir de 17,00 € par cassette', 1700],
    ['minidv', 'À partir de 17,00 € par cassette', 1700],
    ['film', 'À partir de 15,00 € par bobine', 1500],
    ['bobines', 'À partir de 15,00 € par bobine', 1500],
    ['documents', 'À partir de 0,20 € par page', 20],
    ['journaux', 'À partir de 0,37 € par page', 37],
    ['restauration', 'À partir de 10,00 € par photo restaurée', 1000],
  ] as const)('%s from the default price list: %s', (id, label, cents) => {
    const price = servicePrice(getServiceEntry(id), DEFAULT_PRICE_LIST);
    expect(price.label).toBe(eur(label));
    expect(price.cents).toBe(cents);
  });

  it('says "Devis sur mesure" for the memory box', () => {
    expect(servicePrice(getServiceEntry('soovenirs'), DEFAULT_PRICE_LIST).label).toBe(CUSTOM_QUOTE);
  });

  it('follows the active price list, not the defaults', () => {
    const list = withChanges((l) => {
      l.supports.photos.basePrice = 29;
      l.supports.photos.unit = 'tirage';
      l.filmReelPricing.small.price = 1250;
    });
    expect(servicePrice(getServiceEntry('photos'), list).label).toBe(eur('À partir de 0,29 € par tirage'));
    expect(servicePrice(getServiceEntry('film'), list).cents).toBe(1250);
  });

  it('says "Prix sur demande" when the list has no usable price', () => {
    const list = withChanges((l) => {
      (l.supports.vhs as { basePrice: unknown }).basePrice = 'dix-sept';
    });
    expect(servicePrice(getServiceEntry('vhs'), list).label).toBe(PRICE_ON_REQUEST);
  });

  it('uses the fallback prices when no price list could be read', () => {
    expect(servicePrice(getServiceEntry('photos'), null).label).toBe(eur('À partir de 0,35 € par photo'));
    expect(servicePrice(getServiceEntry('vhs'), null).label).toBe(eur('À partir de 18,00 € par cassette'));
    expect(servicePrice(getServiceEntry('restauration'), null).label).toBe(
      eur('À partir de 10,00 € par photo restaurée'),
    );
    expect(servicePrice(getServiceEntry('ektachromes'), null).label).toBe(PRICE_ON_REQUEST);
  });

  it('prices every service of the catalogue with the default list', () => {
    for (const service of SERVICE_CATALOGUE) {
      expect(servicePrice(service, DEFAULT_PRICE_LIST).label, service.id).not.toBe(PRICE_ON_REQUEST);
    }
  });
});

describe('price options', () => {
  it('labels multipliers as percentages', () => {
    expect(multiplierLabel(1)).toBe('inclus');
    expect(multiplierLabel(1.2)).toBe(`+20${NNBSP}%`);
    expect(multiplierLabel(1.45)).toBe(`+45${NNBSP}%`);
    expect(multiplierLabel(Number.NaN)).toBe('inclus');
  });

  it('lists resolution, format, quality and restoration for an image support', () => {
    const groups = priceOptionGroups(getServiceEntry('photos'), DEFAULT_PRICE_LIST);
    expect(groups.map((g) => g.title)).toEqual(['Résolution', 'Format des fichiers', 'Qualité', 'En option']);
    expect(groups[0]?.options.map((o) => o.value)).toEqual(['inclus', `+20${NNBSP}%`, `+45${NNBSP}%`]);
  });

  it('lists the reel sizes and denoising for film', () => {
    const groups = priceOptionGroups(getServiceEntry('film'), DEFAULT_PRICE_LIST);
    expect(groups[0]?.options.map((o) => o.value)).toEqual([eur('15,00 €'), eur('25,00 €'), eur('35,00 €')]);
    expect(groups.at(-1)?.options[0]?.value).toBe(eur('+5,00 €'));
    expect(lowestReelCents(DEFAULT_PRICE_LIST)).toBe(1500);
  });

  it('gives no option without a price list', () => {
    expect(priceOptionGroups(getServiceEntry('photos'), null)).toEqual([]);
  });

  it('prices the delivery methods', () => {
    expect(deliveryPrices(DEFAULT_PRICE_LIST).map((d) => d.price)).toEqual(['Inclus', eur('15,90 €'), eur('12,90 €')]);
  });
});

describe('fillPricePlaceholders', () => {
  it('replaces the known keys with live prices and the others with "Prix sur demande"', () => {
    const text =
      '{{prix:photos}} · {{ prix:vhs }} · {{prix:bobine-grande}} · {{prix:restauration}} · {{prix:usb}} · {{prix:envoi}} · {{prix:inconnu}}';
    expect(fillPricePlaceholders(text, DEFAULT_PRICE_LIST)).toBe(
      eur(`0,35 € · 17,00 € · 35,00 € · 10,00 € · 15,90 € · 9,90 € · ${PRICE_ON_REQUEST}`),
    );
    expect(fillPricePlaceholders('{{prix:photos}}', null)).toBe(PRICE_ON_REQUEST);
  });
});
