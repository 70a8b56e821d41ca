import { NAMED_CHARACTER_REFERENCES } from './html-entities';

/*
 * HTML from the WordPress source is rendered inside our pages: it goes through this allowlist
 * first (tags, attributes, URL schemes), so that a compromised or careless CMS cannot put scripts,
 * frames, forms or event handlers in the shop. The CSP (nonce'd scripts only) is the second wall.
 * Local Markdown is ours and is not filtered.
 */

const ALLOWED_TAGS = new Set([
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'caption',
  'cite',
  'code',
  'dd',
  'del',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'li',
  'mark',
  'ol',
  'p',
  'pre',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'time',
  'tr',
  'u',
  'ul',
]);

/** Dropped with everything inside them. */
const DROPPED_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'form',
  'select',
  'textarea',
  'button',
  'svg',
  'math',
  'frameset',
  'frame',
  'applet',
  'head',
  'title',
]);

const GLOBAL_ATTRIBUTES = new Set(['id', 'title', 'lang', 'dir']);
const TAG_ATTRIBUTES: Record<string, Set<string>> = {
  a: new Set(['href', 'rel', 'hreflang']),
  img: new Set(['src', 'alt', 'width', 'height', 'loading', 'decoding']),
  td: new Set(['colspan', 'rowspan']),
  th: new Set(['colspan', 'rowspan', 'scope']),
  time: new Set(['datetime']),
  ol: new Set(['start', 'reversed']),
  abbr: new Set(['title']),
};
const URL_ATTRIBUTES = new Set(['href', 'src']);

// Numeric references 0x80-0x9F name Windows-1252 characters (HTML's "numeric character reference end state").
const WINDOWS_1252: Record<number, number> = {
  128: 0x20ac,
  130: 0x201a,
  131: 0x0192,
  132: 0x201e,
  133: 0x2026,
  134: 0x2020,
  135: 0x2021,
  136: 0x02c6,
  137: 0x2030,
  138: 0x0160,
  139: 0x2039,
  140: 0x0152,
  142: 0x017d,
  145: 0x2018,
  146: 0x2019,
  147: 0x201c,
  148: 0x201d,
  149: 0x2022,
  150: 0x2013,
  151: 0x2014,
  152: 0x02dc,
  153: 0x2122,
  154: 0x0161,
  155: 0x203a,
  156: 0x0153,
  158: 0x017e,
  159: 0x0178,
};

function fromNumericReference(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(WINDOWS_1252[code] ?? code);
}

function fromDigits(digits: string, radix: number): string {
  const significant = digits.replace(/^0+/, '');
  // Past 8 digits, the value is beyond Unicode whatever they are (the browser stops counting too).
  if (significant.length > 8) return '\uFFFD';
  return fromNumericReference(significant ? Number.parseInt(significant, radix) : 0);
}

const REFERENCE = /&(?:#[xX]([0-9a-fA-F]+);?|#([0-9]+);?|([a-zA-Z][a-zA-Z0-9]*;?))/g;

/**
 * An attribute value as a browser reads it: numeric references (decimal or hex, any number of
 * leading zeros, with or without ";") and named ones (with ";", or a legacy name without it unless
 * "=" or a letter or digit follows, HTML's rule for attributes). `&colon;`, `&#58;`, `&#x3a`,
 * `&#0000058;` all give ":".
 */
export function decodeAttributeValue(value: string): string {
  return value.replace(REFERENCE, (whole: string, hex?: string, decimal?: string, name?: string, offset = 0) => {
    if (hex !== undefined) return fromDigits(hex, 16);
    if (decimal !== undefined) return fromDigits(decimal, 10);
    if (!name) return whole;
    const exact = NAMED_CHARACTER_REFERENCES[name];
    if (name.endsWith(';') && exact !== undefined) return exact;
    // The longest legacy name (without ";") that starts the run of letters and digits.
    const letters = name.replace(/;$/, '');
    for (let length = Math.min(letters.length, 6); length > 0; length--) {
      const legacy = NAMED_CHARACTER_REFERENCES[letters.slice(0, length)];
      if (legacy === undefined) continue;
      const rest = whole.slice(1 + length);
      const next = rest[0] ?? value[offset + whole.length] ?? '';
      if (/^[=a-zA-Z0-9]$/.test(next)) return whole; // "&copy=1" in a query string stays as typed
      return legacy + rest;
    }
    return whole;
  });
}

const ALLOWED_SCHEMES: Record<'href' | 'src', readonly string[]> = {
  href: ['http', 'https', 'mailto', 'tel'],
  src: ['http', 'https'],
};

/** The scheme a browser would see, or null for a relative URL. */
function schemeOf(url: string): string | null {
  // Browsers ignore control characters and spaces inside a scheme: "java\tscript:" is javascript:.
  const compact = [...url]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code > 0x20 && (code < 0x7f || code > 0x9f);
    })
    .join('')
    .toLowerCase();
  // "//host" and "\\host" (a browser reads "\" as "/") leave the site.
  if (/^[/\\]{2}/.test(compact)) return '//';
  const scheme = /^([^/?#\\]*?):/.exec(compact)?.[1];
  return scheme === undefined ? null : scheme;
}

function percentDecoded(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}

/**
 * Whether a URL (an attribute value already decoded, see decodeAttributeValue) may stay: relative,
 * http(s), and for links mailto and tel. Anything before a ":" that is not one of those is
 * refused, whatever it is (javascript, vbscript, data, an unknown or malformed scheme); the check
 * is repeated on the percent-decoded form, so that no encoding of the scheme gets through.
 */
export function isSafeUrl(url: string, attribute: 'href' | 'src'): boolean {
  for (const candidate of new Set([url, percentDecoded(url)])) {
    const scheme = schemeOf(candidate);
    if (scheme === null) continue;
    if (!ALLOWED_SCHEMES[attribute].includes(scheme)) return false;
  }
  return true;
}

/** Written back fully escaped: what the browser reads is exactly the value that was checked. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function cleanAttributes(tag: string, source: string): string {
  const allowed = TAG_ATTRIBUTES[tag];
  const out: string[] = [];
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    const value = decodeAttributeValue(match[2] ?? match[3] ?? match[4] ?? '');
    if (!GLOBAL_ATTRIBUTES.has(name) && !allowed?.has(name)) continue;
    if (URL_ATTRIBUTES.has(name) && !isSafeUrl(value, name as 'href' | 'src')) continue;
    out.push(`${name}="${escapeAttribute(value)}"`);
  }
  if (tag === 'a' && /\bhref="https?:/i.test(out.join(' '))) {
    // Links to other sites never get our window (and tell nothing of the page they come from).
    const withoutRel = out.filter((attribute) => !attribute.startsWith('rel='));
    withoutRel.push('rel="noopener noreferrer"');
    return withoutRel.length ? ` ${withoutRel.join(' ')}` : '';
  }
  if (tag === 'img' && !out.some((attribute) => attribute.startsWith('loading='))) out.push('loading="lazy"');
  return out.length ? ` ${out.join(' ')}` : '';
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<![^>]*>|<\?[\s\S]*?\?>|<(\/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;

/** An allowlisted copy of an HTML fragment. The page's own h1 stays the only one: h1 becomes h2. */
export function sanitizeHtml(html: string): string {
  let out = '';
  let last = 0;
  let dropping: { tag: string; depth: number } | null = null;
  const open: string[] = [];
  for (const match of html.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    const text = html.slice(last, index);
    last = index + match[0].length;
    if (!dropping) out += text.replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const closing = match[1] === '/';
    const rawTag = match[2]?.toLowerCase();
    if (!rawTag) continue; // comments, doctype, processing instructions
    if (dropping) {
      if (rawTag === dropping.tag) dropping.depth += closing ? -1 : 1;
      if (dropping.depth === 0) dropping = null;
      continue;
    }
    if (DROPPED_WITH_CONTENT.has(rawTag)) {
      const selfClosing = /\/\s*$/.test(match[3] ?? '');
      if (!closing && !selfClosing) dropping = { tag: rawTag, depth: 1 };
      continue;
    }
    const tag = rawTag === 'h1' ? 'h2' : rawTag;
    if (!ALLOWED_TAGS.has(tag)) continue;
    if (closing) {
      const at = open.lastIndexOf(tag);
      if (at === -1) continue;
      // Close what was left open inside, so that the fragment stays well nested.
      for (let i = open.length - 1; i >= at; i--) out += `</${open[i]}>`;
      open.length = at;
      continue;
    }
    if (tag === 'br' || tag === 'hr' || tag === 'img') {
      out += `<${tag}${cleanAttributes(tag, match[3] ?? '')}>`;
      continue;
    }
    out += `<${tag}${cleanAttributes(tag, match[3] ?? '')}>`;
    open.push(tag);
  }
  if (!dropping) out += html.slice(last).replace(/</g, '&lt;').replace(/>/g, '&gt;');
  for (let i = open.length - 1; i >= 0; i--) out += `</${open[i]}>`;
  return out;
}
