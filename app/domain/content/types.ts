/*
 * The content the public site reads: posts,
 * services, service images, pages, categories, tags, FAQ, media and menus. Two sources provide
 * them, local Markdown files (the default) and a WordPress REST API; both return these shapes.
 * HTML fields are ready to render: Markdown converted by us, WordPress HTML sanitised.
 */

export interface Thumbnail {
  url: string;
  alt: string;
  width: number;
  height: number;
}

export interface PostSummary {
  id: string;
  slug: string;
  title: string;
  /** One or two sentences, plain text. */
  excerpt: string;
  /** For the description meta tag. */
  description: string;
  /** ISO 8601. */
  date: string;
  modified: string;
  author: string;
  thumbnail: Thumbnail | null;
  categories: string[];
  tags: string[];
  readingMinutes: number;
}

export interface Post extends PostSummary {
  html: string;
  commentCount: number;
  meta: Record<string, unknown>;
}

export interface PostsQuery {
  limit?: number;
  offset?: number;
  /** A category slug. */
  category?: string;
}

export interface TocEntry {
  id: string;
  title: string;
}

export interface ContentPage {
  id: string;
  slug: string;
  title: string;
  description: string;
  /** A short line above the title. */
  kicker: string;
  /** The paragraph under the title, plain text. */
  intro: string;
  html: string;
  modified: string;
  /** Language of the page when not French (the English legal notice). */
  lang: 'fr' | 'en';
  layout: 'default' | 'legal';
  /** The level-2 headings of the body, for a table of contents. */
  toc: TocEntry[];
}

export interface ServiceContent {
  /** The service id (photos, vhs, plaques-de-verre...). */
  slug: string;
  title: string;
  /** The page's heading. */
  headline: string;
  description: string;
  intro: string;
  /** Short selling points. */
  highlights: string[];
  /** Technical facts, e.g. { label: 'Résolution', value: 'jusqu’à 4800 dpi' }. */
  specs: { label: string; value: string }[];
  html: string;
  modified: string;
}

export interface ServiceImage {
  serviceSlug: string;
  serviceTitle: string;
  imageUrl: string;
  serviceId: string;
  isDefault: boolean;
}

export interface FaqItem {
  id: string;
  question: string;
  answerHtml: string;
  /** The answer as plain text, for the FAQPage structured data. */
  answerText: string;
  category: string;
  /** Shown on the home page. */
  featured: boolean;
}

export interface Taxonomy {
  id: string;
  slug: string;
  name: string;
  count: number;
}

export interface Media {
  id: string;
  url: string;
  alt: string;
  width: number | null;
  height: number | null;
  mimeType: string;
}

export interface ContentMenuItem {
  title: string;
  path: string;
  image?: string;
}

export interface ContentMenu {
  location: string;
  items: ContentMenuItem[];
}

/** What a content source offers: the calls of the content feed (docs/content.md). */
export interface ContentSource {
  readonly kind: 'local' | 'wordpress';
  getPosts(query?: PostsQuery): Promise<PostSummary[]>;
  /** By slug or id; null when there is no such post. */
  getPost(slugOrId: string): Promise<Post | null>;
  getServices(): Promise<ServiceContent[]>;
  getService(slug: string): Promise<ServiceContent | null>;
  getPages(): Promise<ContentPage[]>;
  getPage(slugOrId: string): Promise<ContentPage | null>;
  getCategories(): Promise<Taxonomy[]>;
  getTags(): Promise<Taxonomy[]>;
  getFaq(): Promise<FaqItem[]>;
  getMedia(id: string): Promise<Media | null>;
  getMenu(location: string): Promise<ContentMenu | null>;
  getServiceImages(): Promise<ServiceImage[]>;
}
