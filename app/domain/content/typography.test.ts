import { describe, expect, it } from 'vitest';
import { decodeEntities, frenchProse, htmlToText, readingMinutes, slugify, truncate } from './typography';

const NNBSP = '\u202F';
const NBSP = '\u00A0';

describe('frenchProse', () => {
  it.each([
    ['Horaires : 9h', `Horaires${NNBSP}: 9h`],
    ['Pourquoi ?', `Pourquoi${NNBSP}?`],
    ['Attention!', `Attention${NNBSP}!`],
    ['« Vacances »', `«${NNBSP}Vacances${NNBSP}»`],
    ['30 000 souvenirs', `30${NNBSP}000 souvenirs`],
    ['1 234 567 photos', `1${NNBSP}234${NNBSP}567${NBSP}photos`],
    ['0,35 €', `0,35${NBSP}€`],
    ['100 %', `100${NNBSP}%`],
    ['en 48 h ouvrées', `en 48${NBSP}h ouvrées`],
    ['films Super 8', `films Super${NBSP}8`],
    ['4800 dpi', `4800${NBSP}dpi`],
    // A sign at the start of a fragment (after bold text or a link).
    [' : la suite', `${NNBSP}: la suite`],
  ])('%j -> %j', (input, expected) => {
    expect(frenchProse(input)).toBe(expected);
  });

  it('leaves URLs, times of day and phone numbers alone', () => {
    expect(frenchProse('https://www.cnil.fr')).toBe('https://www.cnil.fr');
    expect(frenchProse('à 14:30')).toBe('à 14:30');
    expect(frenchProse('01 84 60 12 34')).toBe('01 84 60 12 34');
  });

  it('is idempotent', () => {
    const once = frenchProse('Prix : 0,35 € ; 30 000 photos ? « oui » !');
    expect(frenchProse(once)).toBe(once);
  });
});

describe('text helpers', () => {
  it.each([
    ['Les diapositives : un guide', 'les-diapositives-un-guide'],
    ['Numérisation — Œuvres ÉTÉ', 'numerisation-oeuvres-ete'],
    ['  ', ''],
  ])('slugify(%j) = %j', (input, expected) => {
    expect(slugify(input)).toBe(expected);
  });

  it('counts reading minutes at 220 words a minute, at least one', () => {
    expect(readingMinutes('mot')).toBe(1);
    expect(readingMinutes(Array.from({ length: 660 }, () => 'mot').join(' '))).toBe(3);
    expect(readingMinutes('<p>un <strong>deux</strong></p>')).toBe(1);
  });

  it('turns HTML into plain text', () => {
    expect(htmlToText('<p>Bonjour&nbsp;<b>toi</b> &amp; moi</p><script>x()</script>')).toBe(`Bonjour${NBSP} toi & moi`);
    expect(decodeEntities('&#8217;&#x2019;&laquo;&unknown;')).toBe('’’«&unknown;');
  });

  it('cuts long texts at a word, with an ellipsis', () => {
    expect(truncate('court', 10)).toBe('court');
    expect(truncate('Une phrase assez longue pour être coupée', 20)).toBe('Une phrase assez…');
  });
});
