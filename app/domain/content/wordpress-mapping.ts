import { sanitizeHtml } from './sanitize-html';
import type {
  ContentMenu,
  ContentPage,
  FaqItem,
  Media,
  Post,
  PostSummary,
  ServiceContent,
  ServiceImage,
  Taxonomy,
  Thumbnail,
} from './types';
import { decodeEntities, htmlToText, readingMinutes, slugify, truncate } from './typography';

/*
 * From the WordPress answers to our content shapes. The endpoints are the shop's own REST routes
 * (docs/content.md) whose fields are (posts: id, title, content, excerpt,
 * slug, date, modified, author, comment_count, thumbnail, categories, tags, meta); the mapping also
 * accepts WordPress's core shapes ({ rendered } titles, _embedded authors) so that a plain
 * /wp-json/wp/v2 base works for posts and pages. Missing or malformed fields get safe defaults.
 */

type Raw = Record<string, unknown>;

function asRecord(value: unknown): Raw {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : {};
}

/** A string field, or the `rendered` string of a WordPress core field. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  const rendered = asRecord(value).rendered;
  return typeof rendered === 'string' ? rendered : '';
}

function plain(value: unknown): string {
  return decodeEntities(htmlToText(text(value)));
}

function isoDate(value: unknown): string {
  const raw = text(value);
  if (!raw) return '';
  // WordPress gives local times without a zone ("2024-03-01T10:00:00"): they are Paris times.
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

function names(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((item) => (typeof item === 'string' || typeof item === 'number' ? String(item) : plain(asRecord(item).name)))
    .filter((name) => name !== '');
}

function thumbnail(value: unknown, title: string): Thumbnail | null {
  if (typeof value === 'string' && value !== '') return { url: value, alt: title, width: 1200, height: 675 };
  const record = asRecord(value);
  const url = text(record.url ?? record.source_url ?? record.src);
  if (!url) return null;
  const width = Number(record.width);
  const height = Number(record.height);
  return {
    url,
    alt: plain(record.alt ?? record.alt_text) || title,
    width: Number.isFinite(width) && width > 0 ? width : 1200,
    height: Number.isFinite(height) && height > 0 ? height : 675,
  };
}

function author(raw: Raw): string {
  if (typeof raw.author === 'string' && raw.author.trim() !== '') return plain(raw.author);
  // Core WordPress gives an author id, and the name under _embedded when asked to embed it.
  const direct = asRecord(raw.author).name;
  const embeddedAuthors = asRecord(raw._embedded).author;
  const embedded = Array.isArray(embeddedAuthors) ? asRecord(embeddedAuthors[0]).name : undefined;
  return plain(direct ?? embedded) || 'L’équipe Soovenirs';
}

export function mapWpPostSummary(value: unknown): PostSummary {
  const raw = asRecord(value);
  const title = plain(raw.title);
  const content = text(raw.content);
  const excerpt = plain(raw.excerpt) || truncate(htmlToText(content), 200);
  const date = isoDate(raw.date);
  return {
    id: text(raw.id) || text(raw.slug),
    slug: text(raw.slug) || slugify(title),
    title,
    excerpt,
    description: truncate(plain(asRecord(raw.meta).description) || excerpt, 160),
    date,
    modified: isoDate(raw.modified) || date,
    author: author(raw),
    thumbnail: thumbnail(raw.thumbnail ?? raw.featured_image, title),
    categories: names(raw.categories),
    tags: names(raw.tags),
    readingMinutes: readingMinutes(htmlToText(content)),
  };
}

export function mapWpPost(value: unknown): Post {
  const raw = asRecord(value);
  const commentCount = Number(raw.comment_count);
  return {
    ...mapWpPostSummary(raw),
    html: sanitizeHtml(text(raw.content)),
    commentCount: Number.isFinite(commentCount) ? commentCount : 0,
    meta: asRecord(raw.meta),
  };
}

export function mapWpPage(value: unknown): ContentPage {
  const raw = asRecord(value);
  const title = plain(raw.title);
  const html = sanitizeHtml(text(raw.content));
  const toc = [...html.matchAll(/<h2 id="([^"]+)"[^>]*>([\s\S]*?)<\/h2>/g)].map((m) => ({
    id: m[1] as string,
    title: plain(m[2]),
  }));
  const intro = plain(raw.excerpt);
  return {
    id: text(raw.id) || text(raw.slug),
    slug: text(raw.slug) || slugify(title),
    title,
    description: truncate(plain(asRecord(raw.meta).description) || intro || htmlToText(html), 160),
    kicker: plain(asRecord(raw.meta).kicker),
    intro,
    html,
    modified: isoDate(raw.modified) || isoDate(raw.date),
    lang: text(raw.lang) === 'en' ? 'en' : 'fr',
    layout: text(asRecord(raw.meta).layout) === 'legal' ? 'legal' : 'default',
    toc,
  };
}

export function mapWpService(value: unknown): ServiceContent {
  const raw = asRecord(value);
  const title = plain(raw.title);
  const html = sanitizeHtml(text(raw.content));
  const intro = plain(raw.excerpt) || truncate(htmlToText(html), 240);
  const specs = Array.isArray(raw.specs)
    ? raw.specs
        .map((spec) => ({ label: plain(asRecord(spec).label), value: plain(asRecord(spec).value) }))
        .filter((spec) => spec.label && spec.value)
    : [];
  return {
    slug: text(raw.slug) || slugify(title),
    title,
    headline: plain(raw.headline) || title,
    description: truncate(plain(asRecord(raw.meta).description) || intro, 160),
    intro,
    highlights: Array.isArray(raw.highlights) ? raw.highlights.map(plain).filter(Boolean) : [],
    specs,
    html,
    modified: isoDate(raw.modified),
  };
}

export function mapWpServiceImage(value: unknown): ServiceImage {
  const raw = asRecord(value);
  return {
    serviceSlug: text(raw.service_slug),
    serviceTitle: plain(raw.service_title),
    imageUrl: text(raw.image_url),
    serviceId: text(raw.service_id),
    isDefault: raw.is_default === true || raw.is_default === 1 || raw.is_default === '1',
  };
}

export function mapWpTaxonomy(value: unknown): Taxonomy {
  const raw = asRecord(value);
  const name = plain(raw.name);
  const count = Number(raw.count);
  return {
    id: text(raw.id) || text(raw.slug),
    slug: text(raw.slug) || slugify(name),
    name,
    count: Number.isFinite(count) ? count : 0,
  };
}

export function mapWpFaqItem(value: unknown, index: number): FaqItem {
  const raw = asRecord(value);
  const question = plain(raw.question ?? raw.title);
  const answerHtml = sanitizeHtml(text(raw.answer ?? raw.content));
  return {
    id: text(raw.id) || `${slugify(question)}-${index}`,
    question,
    answerHtml,
    answerText: htmlToText(answerHtml),
    category: plain(raw.category) || 'Questions générales',
    featured: raw.featured === true || raw.featured === 1 || raw.featured === '1',
  };
}

export function mapWpMedia(value: unknown): Media {
  const raw = asRecord(value);
  const details = asRecord(raw.media_details);
  const width = Number(raw.width ?? details.width);
  const height = Number(raw.height ?? details.height);
  return {
    id: text(raw.id),
    url: text(raw.url ?? raw.source_url),
    alt: plain(raw.alt ?? raw.alt_text),
    width: Number.isFinite(width) && width > 0 ? width : null,
    height: Number.isFinite(height) && height > 0 ? height : null,
    mimeType: text(raw.mime_type ?? raw.mimeType),
  };
}

export function mapWpMenu(value: unknown, location: string): ContentMenu {
  const raw = asRecord(value);
  const items = Array.isArray(raw.items) ? raw.items : Array.isArray(value) ? value : [];
  return {
    location,
    items: items
      .map((item) => {
        const entry = asRecord(item);
        const image = text(entry.image);
        return {
          title: plain(entry.title),
          path: text(entry.path ?? entry.url),
          ...(image ? { image } : {}),
        };
      })
      .filter((item) => item.title !== '' && item.path !== ''),
  };
}

/** A list answer: a JSON array, or an object holding one under `data` or `items`. */
export function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const record = asRecord(value);
  if (Array.isArray(record.data)) return record.data;
  if (Array.isArray(record.items)) return record.items;
  return [];
}
