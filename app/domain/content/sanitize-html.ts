import sanitize from 'sanitize-html';

/*
 * HTML from the WordPress source is rendered inside our pages: it goes through this allowlist
 * first (tags, attributes, URL schemes), so that a compromised or careless CMS cannot put scripts,
 * frames, forms or event handlers in the shop. The CSP (nonce'd scripts only) is the second wall.
 * Local Markdown is ours and is not filtered.
 *
 * The parsing, the entity decoding, the scheme check and the escaping are sanitize-html's
 * (htmlparser2 underneath, maintained, fixed when a browser quirk is found): a hand-written
 * tokenizer is where sanitizers break (docs/decisions/032-parser-based-sanitizer.md). What stays
 * here is our policy: the lists below, h1 → h2, rel on outside links, lazy images, and a second,
 * stricter URL check.
 */

const ALLOWED_TAGS = [
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
];

/**
 * Dropped with everything inside them (any other tag off the list goes and its text stays).
 * sanitize-html's own list (script, style, textarea, option, xmp) is repeated, since giving the
 * option replaces it.
 */
const DROPPED_WITH_CONTENT = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'form',
  'select',
  'button',
  'svg',
  'math',
  'frameset',
  'frame',
  'applet',
  'head',
  'title',
];

const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  '*': ['id', 'title', 'lang', 'dir'],
  a: ['href', 'rel', 'hreflang'],
  img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  time: ['datetime'],
  ol: ['start', 'reversed'],
};

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
 * Whether a URL (an attribute value as the parser decoded it) may stay: relative, http(s), and for
 * links mailto and tel. Anything before a ":" that is not one of those is refused, whatever it is
 * (javascript, vbscript, data, an unknown or malformed scheme, "java\uFFFDscript"); the check is
 * repeated on the percent-decoded form, so that no encoding of the scheme gets through.
 * sanitize-html checks the scheme too (only well-formed schemes, not percent-decoded): this is
 * the stricter second look, kept from before the library.
 */
export function isSafeUrl(url: string, attribute: 'href' | 'src'): boolean {
  for (const candidate of new Set([url, percentDecoded(url)])) {
    const scheme = schemeOf(candidate);
    if (scheme === null) continue;
    if (!ALLOWED_SCHEMES[attribute].includes(scheme)) return false;
  }
  return true;
}

function withoutUnsafeUrl(attribs: sanitize.Attributes, attribute: 'href' | 'src'): sanitize.Attributes {
  const value = attribs[attribute];
  if (value === undefined || isSafeUrl(value, attribute)) return attribs;
  const { [attribute]: _dropped, ...rest } = attribs;
  return rest;
}

const OPTIONS: sanitize.IOptions = {
  allowedTags: ALLOWED_TAGS,
  allowedAttributes: ALLOWED_ATTRIBUTES,
  // Applied by the library to href, src and every other URL attribute it knows (none of which is
  // allowed anyway); protocol-relative "//host" leaves the site, so it is refused too.
  allowedSchemes: [...ALLOWED_SCHEMES.href],
  allowedSchemesByTag: { img: [...ALLOWED_SCHEMES.src] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  // The page's own h1 stays the only one.
  transformTags: {
    h1: 'h2',
    a: (_tagName, attribs) => {
      const kept = withoutUnsafeUrl(attribs, 'href');
      const href = kept.href;
      if (href !== undefined && /^https?$/.test(schemeOf(href) ?? '')) {
        // Links to other sites never get our window (and tell nothing of the page they come from).
        const { rel: _rel, ...others } = kept;
        return { tagName: 'a', attribs: { ...others, rel: 'noopener noreferrer' } };
      }
      return { tagName: 'a', attribs: kept };
    },
    img: (_tagName, attribs) => {
      const kept = withoutUnsafeUrl(attribs, 'src');
      return { tagName: 'img', attribs: kept.loading ? kept : { ...kept, loading: 'lazy' } };
    },
  },
};

/** An allowlisted copy of an HTML fragment. The page's own h1 stays the only one: h1 becomes h2. */
export function sanitizeHtml(html: string): string {
  // The library writes void elements as "<br />"; ours are written "<br>" (HTML, not XHTML). Text
  // and attribute values come out with "<" and ">" escaped, so " />" can only end a void tag.
  return sanitize(html, OPTIONS).replace(/ \/>/g, '>');
}
