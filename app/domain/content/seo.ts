import { company } from '../company';
import type { FaqItem, Post } from './types';

/*
 * Search engines and link previews: the meta tags of every public page (title, description,
 * canonical, Open Graph) and the schema.org structured data (JSON-LD):
 * LocalBusiness with opening hours, services with prices, BreadcrumbList, BlogPosting, FAQPage.
 */

export const SITE_NAME = 'Soovenirs';
/** 1200 × 630, the size link previews expect. */
export const DEFAULT_SHARE_IMAGE = { path: '/images/og/soovenirs-partage.png', width: 1200, height: 630 } as const;
export const LOGO_PATH = '/images/site/logo-soovenirs.png';

/** The business hours of company.ts, in the form schema.org wants. */
export const OPENING_HOURS = [
  { days: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'], opens: '09:00', closes: '20:30' },
  { days: ['Saturday'], opens: '10:00', closes: '15:00' },
] as const;

/** The workshop's position (12 rue des Archives, Paris 4e), for the map and the structured data. */
export const WORKSHOP_GEO = { latitude: 48.85775, longitude: 2.35485 } as const;

/** `origin` + `path`, the path percent-encoded the way browsers send it (/numérisation-… included). */
export function absoluteUrl(origin: string, path: string): string {
  if (/^https?:\/\//i.test(path)) return path;
  return `${origin.replace(/\/$/, '')}${encodeURI(path.startsWith('/') ? path : `/${path}`)}`;
}

export function pageTitle(title: string): string {
  return title.includes(SITE_NAME) ? title : `${title} | ${SITE_NAME}`;
}

export interface SeoInput {
  title: string;
  description: string;
  /** The canonical path of the page, e.g. /services/photos. */
  path: string;
  origin: string;
  type?: 'website' | 'article';
  image?: { path: string; width: number; height: number; alt?: string };
  /** For pages that must not be indexed (errors, variants). */
  noindex?: boolean;
  publishedTime?: string;
  modifiedTime?: string;
  locale?: 'fr_FR' | 'en_GB';
}

/** React Router meta descriptors (plain objects, so that this module stays free of the framework). */
export type MetaTag =
  | { title: string }
  | { name: string; content: string }
  | { property: string; content: string }
  | { tagName: 'link'; rel: string; href: string };

export function seoMeta(input: SeoInput): MetaTag[] {
  const url = absoluteUrl(input.origin, input.path);
  const image = input.image ?? { ...DEFAULT_SHARE_IMAGE, alt: 'Soovenirs, numérisation de vos souvenirs' };
  const title = pageTitle(input.title);
  const tags: MetaTag[] = [
    { title },
    { name: 'description', content: input.description },
    { tagName: 'link', rel: 'canonical', href: url },
    { property: 'og:site_name', content: SITE_NAME },
    { property: 'og:locale', content: input.locale ?? 'fr_FR' },
    { property: 'og:type', content: input.type ?? 'website' },
    { property: 'og:title', content: input.title },
    { property: 'og:description', content: input.description },
    { property: 'og:url', content: url },
    { property: 'og:image', content: absoluteUrl(input.origin, image.path) },
    { property: 'og:image:width', content: String(image.width) },
    { property: 'og:image:height', content: String(image.height) },
    { property: 'og:image:alt', content: image.alt ?? input.title },
    { name: 'twitter:card', content: 'summary_large_image' },
  ];
  if (input.publishedTime) tags.push({ property: 'article:published_time', content: input.publishedTime });
  if (input.modifiedTime) tags.push({ property: 'article:modified_time', content: input.modifiedTime });
  if (input.noindex) tags.push({ name: 'robots', content: 'noindex' });
  return tags;
}

// --- JSON-LD -------------------------------------------------------------------------------

export type JsonLd = Record<string, unknown>;

function postalAddress(): JsonLd {
  return {
    '@type': 'PostalAddress',
    streetAddress: company.street,
    postalCode: company.postalCode,
    addressLocality: company.city,
    addressCountry: 'FR',
  };
}

function organizationRef(origin: string): JsonLd {
  return {
    '@type': 'Organization',
    '@id': `${origin}/#organisation`,
    name: company.brand,
    legalName: company.legalName,
    url: `${origin}/`,
    logo: absoluteUrl(origin, LOGO_PATH),
  };
}

/** A price in cents as schema.org wants it: "0.35". */
export function schemaPrice(cents: number): string {
  return (cents / 100).toFixed(2);
}

export interface PricedService {
  name: string;
  description: string;
  path: string;
  /** Lowest price in cents, or null when priced on request. */
  cents: number | null;
  /** "photo", "cassette", "bobine"... */
  unit: string | null;
}

function offer(origin: string, service: PricedService): JsonLd {
  const item: JsonLd = {
    '@type': 'Offer',
    url: absoluteUrl(origin, service.path),
    priceCurrency: 'EUR',
    itemOffered: {
      '@type': 'Service',
      name: service.name,
      description: service.description,
      provider: { '@id': `${origin}/#entreprise` },
      areaServed: { '@type': 'Country', name: 'France' },
    },
  };
  if (service.cents !== null) {
    item.price = schemaPrice(service.cents);
    item.priceSpecification = {
      '@type': 'UnitPriceSpecification',
      price: schemaPrice(service.cents),
      priceCurrency: 'EUR',
      valueAddedTaxIncluded: true,
      ...(service.unit ? { unitText: service.unit } : {}),
    };
  }
  return item;
}

export function offerCatalog(origin: string, services: readonly PricedService[]): JsonLd {
  return {
    '@type': 'OfferCatalog',
    name: 'Prestations de numérisation Soovenirs',
    numberOfItems: services.length,
    itemListElement: services.map((service) => offer(origin, service)),
  };
}

export function localBusiness(origin: string, services: readonly PricedService[] = []): JsonLd {
  const business: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    '@id': `${origin}/#entreprise`,
    name: company.brand,
    legalName: company.legalName,
    description:
      'Numérisation de photos, diapositives, négatifs, plaques de verre, cassettes VHS, VHS-C et MiniDV, films Super 8 et 16 mm, documents et journaux, restauration photo. Atelier en France.',
    url: `${origin}/`,
    image: absoluteUrl(origin, DEFAULT_SHARE_IMAGE.path),
    logo: absoluteUrl(origin, LOGO_PATH),
    telephone: company.phoneHref.replace(/^tel:/, ''),
    email: company.email,
    address: postalAddress(),
    geo: { '@type': 'GeoCoordinates', ...WORKSHOP_GEO },
    vatID: company.vatNumber.replace(/\s/g, ''),
    priceRange: '€€',
    currenciesAccepted: 'EUR',
    paymentAccepted: 'Carte bancaire, virement, chèque',
    openingHoursSpecification: OPENING_HOURS.map((slot) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: slot.days.map((day) => `https://schema.org/${day}`),
      opens: slot.opens,
      closes: slot.closes,
    })),
  };
  if (services.length > 0) business.hasOfferCatalog = offerCatalog(origin, services);
  return business;
}

export function servicesStructuredData(origin: string, services: readonly PricedService[]): JsonLd {
  return { '@context': 'https://schema.org', ...offerCatalog(origin, services), url: absoluteUrl(origin, '/services') };
}

export function serviceStructuredData(origin: string, service: PricedService): JsonLd {
  const data: JsonLd = {
    '@context': 'https://schema.org',
    '@type': 'Service',
    name: service.name,
    description: service.description,
    url: absoluteUrl(origin, service.path),
    serviceType: 'Numérisation',
    provider: { '@type': 'LocalBusiness', '@id': `${origin}/#entreprise`, name: company.brand },
    areaServed: { '@type': 'Country', name: 'France' },
  };
  if (service.cents !== null) data.offers = offer(origin, service);
  return data;
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbList(origin: string, crumbs: readonly Crumb[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: crumbs.map((crumb, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(origin, crumb.path),
    })),
  };
}

export function blogPosting(origin: string, post: Post): JsonLd {
  const url = absoluteUrl(origin, `/blog/${post.slug}`);
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.description,
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    datePublished: post.date,
    dateModified: post.modified || post.date,
    inLanguage: 'fr-FR',
    author: { '@type': 'Person', name: post.author },
    publisher: organizationRef(origin),
    image: post.thumbnail ? absoluteUrl(origin, post.thumbnail.url) : absoluteUrl(origin, DEFAULT_SHARE_IMAGE.path),
    keywords: post.tags.join(', '),
    articleSection: post.categories[0],
  };
}

export function faqPage(items: readonly Pick<FaqItem, 'question' | 'answerText'>[]): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answerText },
    })),
  };
}

/**
 * JSON for a <script type="application/ld+json">: `<` and the line separators are escaped so that
 * no text of the data can close the script element or break it.
 */
export function serializeJsonLd(data: JsonLd | readonly JsonLd[]): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
