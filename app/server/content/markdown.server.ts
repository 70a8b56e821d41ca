import { Marked, type Tokens } from 'marked';
import { fillCompanyPlaceholders } from '~/domain/content/placeholders';
import type { TocEntry } from '~/domain/content/types';
import { frenchProse, htmlToText, slugify } from '~/domain/content/typography';

/*
 * Markdown of the content/ folder to HTML: GitHub-flavoured Markdown, French typography on the
 * text (not on code or URLs), ids on headings (for the table of contents and anchors), sized lazy
 * images (`![alt](/images/x.svg "640x360")`), tables that scroll on narrow screens, and links to
 * other sites that do not hand them our window.
 */

export interface RenderedMarkdown {
  html: string;
  toc: TocEntry[];
  text: string;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function renderMarkdown(source: string, { french = true }: { french?: boolean } = {}): RenderedMarkdown {
  const toc: TocEntry[] = [];
  const usedIds = new Map<string, number>();

  const marked = new Marked({
    gfm: true,
    walkTokens(token) {
      if (french && token.type === 'text' && !('tokens' in token && token.tokens?.length)) {
        (token as Tokens.Text).text = frenchProse((token as Tokens.Text).text);
      }
    },
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const plain = htmlToText(inner);
        const base = slugify(plain) || 'section';
        const seen = usedIds.get(base) ?? 0;
        usedIds.set(base, seen + 1);
        const id = seen === 0 ? base : `${base}-${seen + 1}`;
        if (depth === 2) toc.push({ id, title: plain });
        // Content files start at level 2: the page's title is its only h1.
        const level = Math.max(2, depth);
        return `<h${level} id="${id}">${inner}</h${level}>\n`;
      },
      link({ href, title, tokens }) {
        const inner = this.parser.parseInline(tokens);
        const external = /^https?:\/\//i.test(href);
        const titleAttribute = title ? ` title="${escapeAttribute(title)}"` : '';
        const rel = external ? ' rel="noopener noreferrer"' : '';
        return `<a href="${escapeAttribute(href)}"${titleAttribute}${rel}>${inner}</a>`;
      },
      image({ href, title, text }) {
        const size = title ? /^(\d+)x(\d+)$/.exec(title) : null;
        const dimensions = size ? ` width="${size[1]}" height="${size[2]}"` : '';
        return `<img src="${escapeAttribute(href)}" alt="${escapeAttribute(text)}"${dimensions} loading="lazy" decoding="async">`;
      },
    },
  });

  const rendered = marked.parse(fillCompanyPlaceholders(source), { async: false }) as string;
  // A table wider than a phone scrolls in its own box, which keyboards must be able to reach.
  const label = french ? 'Tableau, défilable horizontalement' : 'Table, scrolls horizontally';
  const html = rendered
    .replace(/<table>/g, `<div class="table-scroll" tabindex="0" role="region" aria-label="${label}"><table>`)
    .replace(/<\/table>/g, '</table></div>');
  return { html, toc, text: htmlToText(html) };
}

/** One line of front matter (a title, an excerpt) to plain text, with French typography unless told otherwise. */
export function inlineText(source: string, { french = true }: { french?: boolean } = {}): string {
  const text = fillCompanyPlaceholders(source.trim());
  return french ? frenchProse(text) : text;
}
