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

export function isSafeUrl(url: string, attribute: 'href' | 'src'): boolean {
  // Browsers ignore control characters and spaces inside a scheme: "java\tscript:" is javascript:.
  const compact = [...url]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return code > 0x20 && (code < 0x7f || code > 0x9f);
    })
    .join('')
    .toLowerCase();
  if (compact.startsWith('//')) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(compact)?.[1];
  if (!scheme) return true;
  if (scheme === 'http' || scheme === 'https') return true;
  return attribute === 'href' && (scheme === 'mailto' || scheme === 'tel');
}

function escapeAttribute(value: string): string {
  return value
    .replace(/&(?![a-z]+;|#\d+;|#x[0-9a-f]+;)/gi, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/</g, '&lt;');
}

const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function cleanAttributes(tag: string, source: string): string {
  const allowed = TAG_ATTRIBUTES[tag];
  const out: string[] = [];
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] ?? match[3] ?? match[4] ?? '';
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
