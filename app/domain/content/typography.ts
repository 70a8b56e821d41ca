import { frenchTypography, NBSP, NNBSP } from '../format';

/*
 * French typography for the site's prose (Markdown bodies, titles, FAQ answers), so that authors
 * may type ordinary spaces: the signs ; : ! ? % and « » get a narrow no-break space (U+202F),
 * thousands are grouped with it (30 000), and a number stays on the line of its unit (48 h,
 * 0,35 €, Super 8) with a no-break space (U+00A0). URLs and times of day (14:30) are untouched.
 */

const UNITS = [
  'h',
  'min',
  's',
  'cm',
  'mm',
  'm',
  'km',
  'dpi',
  'ppp',
  'jours?',
  'ans?',
  'mois',
  'semaines?',
  'heures?',
  'minutes?',
  'Mo',
  'Go',
  'To',
  'ko',
  '°C',
  'Hz',
  'photos?',
  'pages?',
  'images?',
  'fois',
  'bobines?',
  'cassettes?',
  'diapositives?',
];

const numberBeforeUnit = new RegExp(`(\\d) (?=(?:${UNITS.join('|')})(?![\\p{L}\\p{N}]))`, 'gu');

export function frenchProse(text: string): string {
  let out = frenchTypography(text);
  // A space left before a sign at the start of a fragment (after bold text, a link...).
  out = out.replace(/[ \u00A0]([;:!?](?=\s|$)|»)/gu, `${NNBSP}$1`);
  // Thousands: "30 000", "1 234 567" (only groups of exactly three digits).
  out = out.replace(/(?<=\d)[ \u00A0](?=\d{3}(?!\d))/g, NNBSP);
  out = out.replace(/(\d)[ \u00A0]?%/g, `$1${NNBSP}%`);
  out = out.replace(/(\d)[ \u202F]?€/g, `$1${NBSP}€`);
  out = out.replace(numberBeforeUnit, `$1${NBSP}`);
  // Names that end with a number: Super 8, Windows 11, Hi 8...
  out = out.replace(/\b(Super|Hi|Video|Vidéo|Digital) (\d)/g, `$1${NBSP}$2`);
  return out;
}

/** "Les diapositives : un guide" -> "les-diapositives-un-guide": ids of headings, slugs. */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Minutes of reading at 220 words a minute, never less than one. */
export function readingMinutes(text: string): number {
  const words = text
    .replace(/<[^>]*>/g, ' ')
    .split(/\s+/)
    .filter(Boolean).length;
  return Math.max(1, Math.round(words / 220));
}

/**
 * Plain text of an HTML fragment: tags dropped, common entities decoded, ordinary white space
 * collapsed (the no-break spaces of French typography are kept).
 */
export function htmlToText(html: string): string {
  return decodeEntities(html.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '))
    .replace(/[ \t\n\r\f\v]+/g, ' ')
    .trim();
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: NBSP,
  laquo: '«',
  raquo: '»',
  rsquo: '’',
  lsquo: '‘',
  hellip: '…',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  ndash: '–',
  mdash: '—',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] === '#') {
      const code =
        entity[1] === 'x' || entity[1] === 'X' ? Number.parseInt(entity.slice(2), 16) : Number(entity.slice(1));
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : match;
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? match;
  });
}

/** The first `max` characters of a text, cut at a word and ended with an ellipsis when shortened. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/u, '')}…`;
}
