import { SERVICE_IDS } from '../site-navigation';
import { absoluteUrl } from './seo';

/*
 * The public pages (app/routes.ts), for the sitemap and the robots rules. Posts
 * are added from the content source; private areas are listed for robots.txt.
 */

export interface SitemapEntry {
  path: string;
  /** ISO 8601 date of the last change, when known. */
  lastModified?: string;
  changeFrequency?: 'daily' | 'weekly' | 'monthly' | 'yearly';
  /** 0 to 1. */
  priority?: number;
}

export const STATIC_PUBLIC_PAGES: readonly SitemapEntry[] = [
  { path: '/', changeFrequency: 'weekly', priority: 1 },
  { path: '/services', changeFrequency: 'monthly', priority: 0.9 },
  ...SERVICE_IDS.map((id) => ({ path: `/services/${id}`, changeFrequency: 'monthly' as const, priority: 0.8 })),
  { path: '/boite-soovenirs', changeFrequency: 'monthly', priority: 0.7 },
  { path: '/configurateur', changeFrequency: 'monthly', priority: 0.9 },
  { path: '/organisation-commande', changeFrequency: 'yearly', priority: 0.6 },
  { path: '/faq', changeFrequency: 'monthly', priority: 0.6 },
  { path: '/histoire-photographie', changeFrequency: 'yearly', priority: 0.5 },
  { path: '/guide-conservation', changeFrequency: 'yearly', priority: 0.5 },
  { path: '/numerisation-fonctionnement', changeFrequency: 'yearly', priority: 0.6 },
  { path: '/numérisation-essai-gratuit', changeFrequency: 'monthly', priority: 0.7 },
  { path: '/villes-du-loiret', changeFrequency: 'yearly', priority: 0.4 },
  { path: '/a-propos', changeFrequency: 'yearly', priority: 0.5 },
  { path: '/boutique', changeFrequency: 'monthly', priority: 0.6 },
  { path: '/carte-cadeau', changeFrequency: 'monthly', priority: 0.6 },
  { path: '/blog', changeFrequency: 'weekly', priority: 0.7 },
  { path: '/services-entreprises', changeFrequency: 'monthly', priority: 0.7 },
  { path: '/contact', changeFrequency: 'yearly', priority: 0.6 },
  { path: '/mentions-legales', changeFrequency: 'yearly', priority: 0.2 },
  { path: '/legal-notice', changeFrequency: 'yearly', priority: 0.1 },
  { path: '/cgv', changeFrequency: 'yearly', priority: 0.3 },
  { path: '/politique-de-confidentialite', changeFrequency: 'yearly', priority: 0.2 },
];

/** Never to be crawled: accounts, payment, back office, resource routes. */
export const ROBOTS_DISALLOW = [
  '/admin',
  '/profile',
  '/checkout',
  '/confirmation',
  '/facture/',
  '/mes-devis',
  '/setup-super-admin',
  '/api/',
] as const;

function escapeXml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );
}

export function buildSitemapXml(origin: string, entries: readonly SitemapEntry[]): string {
  const seen = new Set<string>();
  const urls: string[] = [];
  for (const entry of entries) {
    const loc = absoluteUrl(origin, entry.path);
    if (seen.has(loc)) continue;
    seen.add(loc);
    const parts = [`<loc>${escapeXml(loc)}</loc>`];
    if (entry.lastModified) parts.push(`<lastmod>${escapeXml(entry.lastModified.slice(0, 10))}</lastmod>`);
    if (entry.changeFrequency) parts.push(`<changefreq>${entry.changeFrequency}</changefreq>`);
    if (entry.priority !== undefined) parts.push(`<priority>${entry.priority.toFixed(1)}</priority>`);
    urls.push(`  <url>${parts.join('')}</url>`);
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}

export function buildRobotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...ROBOTS_DISALLOW.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${absoluteUrl(origin, '/sitemap.xml')}`,
    '',
  ].join('\n');
}
