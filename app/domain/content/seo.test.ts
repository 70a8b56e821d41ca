import { describe, expect, it } from 'vitest';
import { businessHours, company } from '../company';
import {
  absoluteUrl,
  blogPosting,
  breadcrumbList,
  faqPage,
  localBusiness,
  OPENING_HOURS,
  pageTitle,
  schemaPrice,
  seoMeta,
  serializeJsonLd,
  servicesStructuredData,
} from './seo';
import type { Post } from './types';

const ORIGIN = 'https://www.soovenirs.fr';

describe('seoMeta', () => {
  it('gives the title, description, canonical and Open Graph of a page', () => {
    const tags = seoMeta({ title: 'Nos prestations', description: 'Tarifs TTC.', path: '/services', origin: ORIGIN });
    expect(tags).toContainEqual({ title: 'Nos prestations | Soovenirs' });
    expect(tags).toContainEqual({ name: 'description', content: 'Tarifs TTC.' });
    expect(tags).toContainEqual({ tagName: 'link', rel: 'canonical', href: `${ORIGIN}/services` });
    expect(tags).toContainEqual({ property: 'og:url', content: `${ORIGIN}/services` });
    expect(tags).toContainEqual({ property: 'og:locale', content: 'fr_FR' });
    expect(tags).toContainEqual({ property: 'og:image', content: `${ORIGIN}/images/og/soovenirs-partage.png` });
    expect(tags.some((t) => 'name' in t && t.name === 'robots')).toBe(false);
  });

  it('marks articles and pages not to index', () => {
    const tags = seoMeta({
      title: 'Soovenirs : un article',
      description: 'd',
      path: '/blog/x',
      origin: ORIGIN,
      type: 'article',
      publishedTime: '2026-03-12T08:00:00.000Z',
      noindex: true,
    });
    expect(tags).toContainEqual({ title: 'Soovenirs : un article' });
    expect(tags).toContainEqual({ property: 'og:type', content: 'article' });
    expect(tags).toContainEqual({ property: 'article:published_time', content: '2026-03-12T08:00:00.000Z' });
    expect(tags).toContainEqual({ name: 'robots', content: 'noindex' });
  });

  it('percent-encodes the accented path of the free trial, as browsers send it', () => {
    expect(absoluteUrl(`${ORIGIN}/`, '/numérisation-essai-gratuit')).toBe(`${ORIGIN}/num%C3%A9risation-essai-gratuit`);
    expect(absoluteUrl(ORIGIN, 'https://ailleurs.example/x')).toBe('https://ailleurs.example/x');
    expect(pageTitle('Soovenirs')).toBe('Soovenirs');
  });
});

describe('structured data', () => {
  it('describes the business with its address and the opening hours of company.ts', () => {
    const data = localBusiness(ORIGIN, [
      { name: 'Photos papier', description: 'd', path: '/services/photos', cents: 35, unit: 'photo' },
    ]);
    expect(data['@type']).toBe('LocalBusiness');
    expect(data.telephone).toBe('+33184601234');
    expect(data.address).toMatchObject({ streetAddress: company.street, postalCode: '75004', addressCountry: 'FR' });
    expect(data.openingHoursSpecification).toEqual([
      expect.objectContaining({
        opens: '09:00',
        closes: '20:30',
        dayOfWeek: expect.arrayContaining(['https://schema.org/Monday']),
      }),
      expect.objectContaining({ opens: '10:00', closes: '15:00', dayOfWeek: ['https://schema.org/Saturday'] }),
    ]);
    const catalogue = data.hasOfferCatalog as { itemListElement: { price: string; priceCurrency: string }[] };
    expect(catalogue.itemListElement[0]).toMatchObject({ price: '0.35', priceCurrency: 'EUR' });
  });

  it('keeps the opening hours in step with the footer’s business hours', () => {
    const toFooter = (time: string) => time.replace(/^0/, '').replace(':00', 'h').replace(':', 'h');
    expect(businessHours[0].hours).toBe(`${toFooter(OPENING_HOURS[0].opens)}–${toFooter(OPENING_HOURS[0].closes)}`);
    expect(businessHours[1].hours).toBe(`${toFooter(OPENING_HOURS[1].opens)}–${toFooter(OPENING_HOURS[1].closes)}`);
    expect(businessHours[2].hours).toBe('Fermé');
  });

  it('lists services with prices, and leaves out the price of a service on request', () => {
    const data = servicesStructuredData(ORIGIN, [
      { name: 'VHS', description: 'd', path: '/services/vhs', cents: 1700, unit: 'cassette' },
      { name: 'Boîte', description: 'd', path: '/services/soovenirs', cents: null, unit: null },
    ]);
    const items = data.itemListElement as Record<string, unknown>[];
    expect(data.numberOfItems).toBe(2);
    expect(items[0]).toMatchObject({ price: '17.00', url: `${ORIGIN}/services/vhs` });
    expect(items[1]?.price).toBeUndefined();
    expect(schemaPrice(1590)).toBe('15.90');
  });

  it('builds breadcrumbs, blog posts and FAQ pages', () => {
    expect(
      breadcrumbList(ORIGIN, [
        { name: 'Accueil', path: '/' },
        { name: 'Services', path: '/services' },
      ]).itemListElement,
    ).toEqual([
      { '@type': 'ListItem', position: 1, name: 'Accueil', item: `${ORIGIN}/` },
      { '@type': 'ListItem', position: 2, name: 'Services', item: `${ORIGIN}/services` },
    ]);
    const post = {
      slug: 'vhs',
      title: 'VHS',
      description: 'd',
      date: '2026-05-20T07:00:00.000Z',
      modified: '',
      author: 'Julien',
      thumbnail: { url: '/images/blog/vhs.svg', alt: '', width: 1200, height: 675 },
      tags: ['VHS'],
      categories: ['Vidéo'],
    } as unknown as Post;
    expect(blogPosting(ORIGIN, post)).toMatchObject({
      '@type': 'BlogPosting',
      headline: 'VHS',
      dateModified: '2026-05-20T07:00:00.000Z',
      image: `${ORIGIN}/images/blog/vhs.svg`,
      mainEntityOfPage: { '@id': `${ORIGIN}/blog/vhs` },
    });
    expect(faqPage([{ question: 'Q ?', answerText: 'R.' }]).mainEntity).toEqual([
      { '@type': 'Question', name: 'Q ?', acceptedAnswer: { '@type': 'Answer', text: 'R.' } },
    ]);
  });

  it('serialises JSON-LD so that no text can close the script element', () => {
    const json = serializeJsonLd({ name: '</script><script>alert(1)</script> & co' });
    expect(json).not.toContain('</script>');
    expect(json).not.toContain('<');
    expect(JSON.parse(json)).toEqual({ name: '</script><script>alert(1)</script> & co' });
  });
});
