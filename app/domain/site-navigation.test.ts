import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { footerServiceEntries, legalEntries, SERVICE_IDS, serviceEntries, siteNavigation } from './site-navigation';

const publicDir = path.resolve(import.meta.dirname, '../../public');

describe('the site navigation', () => {
  it('has the four drop-downs of the menu, in order', () => {
    expect(siteNavigation.map((group) => group.title)).toEqual(['Prestations', 'Infos', 'Ressources', 'Pro']);
  });

  it.each(SERVICE_IDS)('links the service %s to /services/%s, with a small SVG illustration', (id) => {
    const entry = serviceEntries.find((e) => e.path === `/services/${id}`);
    expect(entry?.image).toBe(`/images/services/${id}.svg`);
    const file = path.join(publicDir, entry?.image ?? '');
    const svg = fs.readFileSync(file, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(fs.statSync(file).size).toBeLessThan(4096);
  });

  it('lists the information, resource and professional pages', () => {
    const paths = (id: string) => siteNavigation.find((g) => g.id === id)?.entries.map((e) => e.path);
    expect(paths('infos')).toEqual([
      '/organisation-commande',
      '/faq',
      '/numerisation-fonctionnement',
      '/numérisation-essai-gratuit',
      '/a-propos',
      '/contact',
      '/boite-soovenirs',
    ]);
    expect(paths('ressources')).toEqual([
      '/blog',
      '/histoire-photographie',
      '/guide-conservation',
      '/villes-du-loiret',
      '/boutique',
    ]);
    expect(paths('pro')).toEqual(['/services-entreprises', '/contact?pro=true']);
  });

  it('gives every menu entry a unique path', () => {
    const all = siteNavigation.flatMap((g) => g.entries.map((e) => e.path));
    expect(new Set(all).size).toBe(all.length);
  });

  it('links the footer to the legal pages and to the service URLs of the catalogue', () => {
    expect(legalEntries.map((e) => e.path)).toEqual([
      '/mentions-legales',
      '/cgv',
      '/politique-de-confidentialite',
      '/legal-notice',
    ]);
    expect(footerServiceEntries.map((e) => e.path)).toEqual(expect.arrayContaining(['/services/plaques-verre']));
  });

  it('links the box once in the footer, to its own page', () => {
    const footerPaths = [...footerServiceEntries, ...(siteNavigation.find((g) => g.id === 'infos')?.entries ?? [])].map(
      (e) => e.path,
    );
    expect(footerPaths.filter((path) => /soovenirs/.test(path))).toEqual(['/boite-soovenirs']);
  });
});
