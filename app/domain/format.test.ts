import { describe, expect, it } from 'vitest';
import { formatDateFr, formatDateTimeFr, formatEurosFromCents, frenchTypography } from './format';

const N = '\u202F';
const B = '\u00A0';

describe('French formats', () => {
  it.each<[unknown, string]>([
    [3500, `35,00${B}€`],
    [0, `0,00${B}€`],
    [123450, `1${N}234,50${B}€`],
    [-1299, `-12,99${B}€`],
    [Number.NaN, 'Prix non disponible'],
    ['35', 'Prix non disponible'],
    [undefined, 'Prix non disponible'],
  ])('euros %j -> %j', (cents, expected) => {
    expect(formatEurosFromCents(cents)).toBe(expected);
  });

  it.each([
    ['2026-11-21T10:00:00Z', '21/11/2026'],
    // 23:30 UTC on the 21st is already the 22nd in Paris.
    ['2026-11-21T23:30:00Z', '22/11/2026'],
    ['2026-01-05T00:00:00+01:00', '05/01/2026'],
  ])('date %s -> %s', (iso, expected) => {
    expect(formatDateFr(iso)).toBe(expected);
  });

  it('dates with the time, in Paris time', () => {
    expect(formatDateTimeFr(new Date('2026-07-14T08:05:00Z'))).toBe('14/07/2026 à 10:05');
  });
});

describe('frenchTypography', () => {
  it.each([
    ['Bonjour !', `Bonjour${N}!`],
    ['Bonjour!', `Bonjour${N}!`],
    ['Une question ?', `Une question${N}?`],
    ['Attention ; suite', `Attention${N}; suite`],
    ['Total : 35 €', `Total${N}: 35 €`],
    ['Total: 35 €', `Total${N}: 35 €`],
    [`Déjà${N}? oui`, `Déjà${N}? oui`],
    [`Déjà${B}? oui`, `Déjà${N}? oui`],
    ['« Boîte Soovenirs »', `«${N}Boîte Soovenirs${N}»`],
    ['Fin :', `Fin${N}:`],
    ['Rendez-vous à 14:30', 'Rendez-vous à 14:30'],
    ['Voir https://soovenirs.fr/a', 'Voir https://soovenirs.fr/a'],
    ['Vraiment ?!', `Vraiment${N}?!`],
  ])('%j -> %j', (input, expected) => {
    expect(frenchTypography(input)).toBe(expected);
  });
});
