import fs from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import type {
  ContentMenu,
  ContentPage,
  ContentSource,
  FaqItem,
  Media,
  Post,
  PostSummary,
  PostsQuery,
  ServiceContent,
  ServiceImage,
  Taxonomy,
  Thumbnail,
} from '~/domain/content/types';
import { readingMinutes, slugify, truncate } from '~/domain/content/typography';
import { SERVICE_CATALOGUE } from '~/domain/services';
import { inlineText, renderMarkdown } from './markdown.server';

/*
 * The default content source: Markdown files with YAML front matter under content/ (see
 * docs/content.md for the fields). Files are read once per process in production; in development
 * every call reads them again, so that an edit shows on the next page load.
 */

export interface LocalSourceOptions {
  /** The content folder; `CONTENT_DIR` or ./content by default. */
  dir?: string;
  /** Keep what was read (default: outside development). */
  cache?: boolean;
}

interface LocalContent {
  posts: Post[];
  pages: ContentPage[];
  services: ServiceContent[];
  faq: FaqItem[];
  menus: ContentMenu[];
}

type FrontMatter = Record<string, unknown>;

async function markdownFiles(dir: string): Promise<{ name: string; source: string }[]> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((name) => name.endsWith('.md') && !name.startsWith('_')).sort();
  return Promise.all(
    files.map(async (name) => ({ name: name.slice(0, -3), source: await fs.readFile(path.join(dir, name), 'utf8') })),
  );
}

function str(value: unknown, fallback = ''): string {
  if (value instanceof Date) return value.toISOString();
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
}

function isoDate(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  const date = new Date(str(value));
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}

function list(value: unknown): string[] {
  return Array.isArray(value) ? value.map((item) => inlineText(str(item))).filter(Boolean) : [];
}

function thumbnailOf(value: unknown, title: string): Thumbnail | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as FrontMatter;
  const url = str(record.url);
  if (!url) return null;
  return {
    url,
    alt: inlineText(str(record.alt, title)),
    width: Number(record.width) || 1200,
    height: Number(record.height) || 675,
  };
}

/** Front matter and body of a file; a malformed front matter names its file. */
function parse(source: string, file: string): { data: FrontMatter; body: string } {
  try {
    // With options, gray-matter neither caches nor serves a failed parse from its cache.
    const parsed = matter(source, { language: 'yaml' });
    return { data: { ...(parsed.data as FrontMatter) }, body: parsed.content };
  } catch (error) {
    throw new Error(`content/${file}.md: invalid front matter (${(error as Error).message.split('\n')[0]})`, {
      cause: error,
    });
  }
}

function toPost(name: string, source: string): Post | null {
  const { data, body } = parse(source, `posts/${name}`);
  if (data.draft === true) return null;
  const title = inlineText(str(data.title, name));
  const rendered = renderMarkdown(body);
  const excerpt = inlineText(str(data.excerpt)) || truncate(rendered.text, 200);
  const date = isoDate(data.date);
  return {
    id: str(data.id, name),
    slug: str(data.slug, name),
    title,
    excerpt,
    description: truncate(inlineText(str(data.description)) || excerpt, 160),
    date,
    modified: isoDate(data.modified) || date,
    author: inlineText(str(data.author, 'L’équipe Soovenirs')),
    thumbnail: thumbnailOf(data.thumbnail, title),
    categories: list(data.categories),
    tags: list(data.tags),
    readingMinutes: readingMinutes(rendered.text),
    html: rendered.html,
    commentCount: 0,
    meta: {},
  };
}

function toPage(name: string, source: string): ContentPage {
  const { data, body } = parse(source, `pages/${name}`);
  const lang = data.lang === 'en' ? 'en' : 'fr';
  // French typography would put spaces before an English page's colons.
  const options = { french: lang === 'fr' };
  const rendered = renderMarkdown(body, options);
  const intro = inlineText(str(data.intro), options);
  return {
    id: str(data.id, name),
    slug: str(data.slug, name),
    title: inlineText(str(data.title, name), options),
    description: truncate(inlineText(str(data.description), options) || intro || rendered.text, 160),
    kicker: inlineText(str(data.kicker), options),
    intro,
    html: rendered.html,
    modified: isoDate(data.modified),
    lang,
    layout: data.layout === 'legal' ? 'legal' : 'default',
    toc: rendered.toc,
  };
}

function toService(name: string, source: string): ServiceContent {
  const { data, body } = parse(source, `services/${name}`);
  const rendered = renderMarkdown(body);
  const title = inlineText(str(data.title, name));
  const intro = inlineText(str(data.intro));
  const specs = Array.isArray(data.specs)
    ? data.specs
        .map((spec) => {
          const record = (spec ?? {}) as FrontMatter;
          return { label: inlineText(str(record.label)), value: inlineText(str(record.value)) };
        })
        .filter((spec) => spec.label && spec.value)
    : [];
  return {
    slug: str(data.slug, name),
    title,
    headline: inlineText(str(data.headline, title)),
    description: truncate(inlineText(str(data.description)) || intro, 160),
    intro,
    highlights: list(data.highlights),
    specs,
    html: rendered.html,
    modified: isoDate(data.modified),
  };
}

const FEATURED_MARK = /<!--\s*accueil\s*-->/;

/** One file per category: `## Question` headings, each followed by its answer. */
function toFaqItems(name: string, source: string): (FaqItem & { order: number })[] {
  const { data, body } = parse(source, `faq/${name}`);
  const category = inlineText(str(data.category, name));
  const order = Number(data.order) || 0;
  const sections = body.split(/^## +/m).slice(1);
  return sections.map((section, index) => {
    const newline = section.indexOf('\n');
    const question = inlineText(newline === -1 ? section : section.slice(0, newline));
    const answer = newline === -1 ? '' : section.slice(newline + 1);
    const rendered = renderMarkdown(answer.replace(FEATURED_MARK, ''));
    return {
      id: slugify(question),
      question,
      answerHtml: rendered.html,
      answerText: rendered.text,
      category,
      featured: FEATURED_MARK.test(answer),
      order: order * 1000 + index,
    };
  });
}

function toMenu(name: string, source: string): ContentMenu {
  const { data } = parse(source, `menus/${name}`);
  const items = Array.isArray(data.items) ? data.items : [];
  return {
    location: str(data.location, name),
    items: items
      .map((item) => {
        const record = (item ?? {}) as FrontMatter;
        const image = str(record.image);
        return { title: inlineText(str(record.title)), path: str(record.path), ...(image ? { image } : {}) };
      })
      .filter((item) => item.title && item.path),
  };
}

async function readContent(dir: string): Promise<LocalContent> {
  const [posts, pages, services, faq, menus] = await Promise.all([
    markdownFiles(path.join(dir, 'posts')),
    markdownFiles(path.join(dir, 'pages')),
    markdownFiles(path.join(dir, 'services')),
    markdownFiles(path.join(dir, 'faq')),
    markdownFiles(path.join(dir, 'menus')),
  ]);
  return {
    posts: posts
      .map((file) => toPost(file.name, file.source))
      .filter((post): post is Post => post !== null)
      .sort((a, b) => b.date.localeCompare(a.date)),
    pages: pages.map((file) => toPage(file.name, file.source)),
    services: services.map((file) => toService(file.name, file.source)),
    faq: faq
      .flatMap((file) => toFaqItems(file.name, file.source))
      .sort((a, b) => a.order - b.order)
      .map(({ order: _order, ...item }) => item),
    menus: menus.map((file) => toMenu(file.name, file.source)),
  };
}

function summary(post: Post): PostSummary {
  const { html: _html, commentCount: _count, meta: _meta, ...rest } = post;
  return rest;
}

function taxonomy(values: string[][]): Taxonomy[] {
  const counts = new Map<string, { name: string; count: number }>();
  for (const name of values.flat()) {
    const slug = slugify(name);
    const entry = counts.get(slug) ?? { name, count: 0 };
    entry.count += 1;
    counts.set(slug, entry);
  }
  return [...counts.entries()]
    .map(([slug, { name, count }]) => ({ id: slug, slug, name, count }))
    .sort((a, b) => a.name.localeCompare(b.name, 'fr'));
}

export function defaultContentDir(): string {
  return path.resolve(process.env.CONTENT_DIR ?? 'content');
}

export function createLocalSource(options: LocalSourceOptions = {}): ContentSource {
  const dir = options.dir ?? defaultContentDir();
  const cache = options.cache ?? process.env.NODE_ENV !== 'development';
  let loaded: Promise<LocalContent> | undefined;
  const content = () => {
    if (!cache) return readContent(dir);
    loaded ??= readContent(dir).catch((error) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };

  return {
    kind: 'local',
    async getPosts({ limit = 10, offset = 0, category }: PostsQuery = {}) {
      const { posts } = await content();
      const matching = category
        ? posts.filter((post) => post.categories.some((name) => slugify(name) === slugify(category)))
        : posts;
      return matching.slice(offset, offset + limit).map(summary);
    },
    async getPost(slugOrId) {
      const { posts } = await content();
      return posts.find((post) => post.slug === slugOrId || post.id === slugOrId) ?? null;
    },
    async getServices() {
      return (await content()).services;
    },
    async getService(slug) {
      return (await content()).services.find((service) => service.slug === slug) ?? null;
    },
    async getPages() {
      return (await content()).pages;
    },
    async getPage(slugOrId) {
      return (await content()).pages.find((page) => page.slug === slugOrId || page.id === slugOrId) ?? null;
    },
    async getCategories() {
      return taxonomy((await content()).posts.map((post) => post.categories));
    },
    async getTags() {
      return taxonomy((await content()).posts.map((post) => post.tags));
    },
    async getFaq() {
      return (await content()).faq;
    },
    async getMedia(id): Promise<Media | null> {
      // The local media are the posts' illustrations, named after their post.
      const post = (await content()).posts.find((p) => p.slug === id || p.id === id);
      if (!post?.thumbnail) return null;
      const extension = path.extname(post.thumbnail.url).slice(1).toLowerCase();
      return {
        id: post.slug,
        url: post.thumbnail.url,
        alt: post.thumbnail.alt,
        width: post.thumbnail.width,
        height: post.thumbnail.height,
        mimeType: extension === 'svg' ? 'image/svg+xml' : `image/${extension === 'jpg' ? 'jpeg' : extension}`,
      };
    },
    async getMenu(location) {
      return (await content()).menus.find((menu) => menu.location === location) ?? null;
    },
    async getServiceImages(): Promise<ServiceImage[]> {
      return SERVICE_CATALOGUE.map((service) => ({
        serviceSlug: service.id,
        serviceTitle: service.title,
        imageUrl: service.image,
        serviceId: service.id,
        isDefault: true,
      }));
    },
  };
}
