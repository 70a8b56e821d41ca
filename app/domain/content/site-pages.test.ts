import { describe, expect, it } from 'vitest';
import { SERVICE_IDS } from '../site-navigation';
import { buildRobotsTxt, buildSitemapXml, STATIC_PUBLIC_PAGES } from './site-pages';

const ORIGIN = 'https://www.soovenirs.fr';

describe('the sitemap', () => {
  it('lists every public page once', () => {
    const paths = STATIC_PUBLIC_PAGES.map((p) => p.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const id of SERVICE_IDS) expect(paths).toContain(`/services/${id}`);
    for (const path of [
      '/',
      '/services',
      '/contact',
      '/cgv',
      '/blog',
      '/numérisation-essai-gratuit',
      '/legal-notice',
    ]) {
      expect(paths).toContain(path);
    }
    expect(paths.some((p) => /^\/(admin|profile|checkout)/.test(p))).toBe(false);
  });

  it('writes valid XML with absolute, encoded, escaped URLs and no duplicate', () => {
    const xml = buildSitemapXml(ORIGIN, [
      { path: '/', priority: 1, changeFrequency: 'weekly' },
      { path: '/', priority: 1 },
      { path: '/numérisation-essai-gratuit' },
      { path: '/blog/a&b', lastModified: '2026-05-20T07:00:00.000Z' },
    ]);
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      ),
    ).toBe(true);
    expect(xml.match(/<loc>/g)).toHaveLength(3);
    expect(xml).toContain(`<loc>${ORIGIN}/</loc><changefreq>weekly</changefreq><priority>1.0</priority>`);
    expect(xml).toContain(`<loc>${ORIGIN}/num%C3%A9risation-essai-gratuit</loc>`);
    expect(xml).toContain(`<loc>${ORIGIN}/blog/a&amp;b</loc><lastmod>2026-05-20</lastmod>`);
  });
});

describe('robots.txt', () => {
  it('keeps crawlers out of the private areas and gives the sitemap', () => {
    const text = buildRobotsTxt(ORIGIN);
    for (const path of ['/admin', '/profile', '/checkout']) expect(text).toContain(`Disallow: ${path}\n`);
    expect(text).toContain('User-agent: *\nAllow: /\n');
    expect(text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`);
  });
});
