import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPricePlaceholders, PRICE_ON_REQUEST } from '~/domain/content/service-prices';
import { htmlToText } from '~/domain/content/typography';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { SERVICE_IDS } from '~/domain/site-navigation';
import { createLocalSource } from './local-source.server';
import { renderMarkdown } from './markdown.server';

/*
 * The local Markdown source, on the shop's real content/ folder (every page the site needs is
 * there, in correct French typography) and on small fixtures for the parsing rules.
 */

const content = createLocalSource({ dir: path.resolve('content'), cache: false });

/** The pages app/routes.ts serves from content/pages (and the dedicated pages that read one). */
const PAGE_SLUGS = [
  'organisation-commande',
  'histoire-photographie',
  'guide-conservation',
  'numerisation-fonctionnement',
  'villes-du-loiret',
  'a-propos',
  'mentions-legales',
  'legal-notice',
  'cgv',
  'politique-de-confidentialite',
  'boite-soovenirs',
  'numerisation-essai-gratuit',
  'boutique',
  'services-entreprises',
];

/** A regular or no-break space before ; : ! ? » (French wants a narrow no-break space). */
const BAD_FRENCH_SPACING = /[ \u00A0][;:!?»]/;

describe('the shop’s content', () => {
  it('has a page for every service of the catalogue', async () => {
    const services = await content.getServices();
    for (const id of SERVICE_IDS) {
      const service = services.find((s) => s.slug === id);
      expect(service, id).toBeDefined();
      expect(service?.headline, id).not.toBe('');
      expect(service?.intro.length, id).toBeGreaterThan(60);
      expect(service?.html.length, id).toBeGreaterThan(800);
      expect(service?.description.length, id).toBeLessThanOrEqual(160);
    }
  });

  it('has every information and legal page, with a title and a description', async () => {
    for (const slug of PAGE_SLUGS) {
      const page = await content.getPage(slug);
      expect(page, slug).not.toBeNull();
      expect(page?.title, slug).not.toBe(slug);
      expect(page?.description.length, slug).toBeGreaterThan(20);
      expect(page?.description.length, slug).toBeLessThanOrEqual(160);
    }
    expect((await content.getPage('legal-notice'))?.lang).toBe('en');
    expect((await content.getPage('cgv'))?.layout).toBe('legal');
  });

  it('states the withdrawal rules, the early-start request and the mediator in the terms of sale', async () => {
    const text = htmlToText((await content.getPage('cgv'))?.html ?? '');
    for (const expected of [
      '14\u00A0jours',
      'L221-18',
      'L221-25',
      'L221-28',
      'demande expresse',
      'Renoncer au contrat ici',
      'médiateur de la consommation',
      'CM2C',
      'formulaire de rétractation',
    ]) {
      expect(text, expected).toContain(expected);
    }
    expect(text).toContain('912\u202F345\u202F678');
  });

  it('tells what is kept, how long, and the visitor’s rights in the privacy policy', async () => {
    const text = htmlToText((await content.getPage('politique-de-confidentialite'))?.html ?? '');
    for (const expected of [
      'Durée de conservation',
      '10\u00A0ans',
      '3\u00A0ans',
      'CNIL',
      'portabilité',
      'aucun traceur publicitaire',
    ]) {
      expect(text, expected).toContain(expected);
    }
  });

  it('has the two posts of the default content, newest first', async () => {
    const posts = await content.getPosts({ limit: 50 });
    const slugs = posts.map((p) => p.slug);
    expect(slugs).toContain('resolution-ideale-numerisation');
    expect(slugs).toContain('vhs-degradation-temporelle');
    expect([...posts].sort((a, b) => b.date.localeCompare(a.date))).toEqual(posts);
    for (const post of posts) {
      expect(post.thumbnail, post.slug).not.toBeNull();
      expect(post.description.length, post.slug).toBeLessThanOrEqual(160);
    }
    expect(await content.getPosts({ limit: 1, offset: 1 })).toEqual([posts[1]]);
    const video = await content.getPosts({ category: 'Vidéo' });
    expect(video.map((p) => p.slug)).toEqual(['vhs-degradation-temporelle']);
    expect((await content.getPost('vhs-degradation-temporelle'))?.html).toContain('<h2 id="');
    expect(await content.getPost('inconnu')).toBeNull();
    expect((await content.getCategories()).find((c) => c.slug === 'conseils')?.count).toBe(2);
    expect((await content.getMedia('vhs-degradation-temporelle'))?.mimeType).toBe('image/svg+xml');
  });

  it('has FAQ answers, five of them for the home page', async () => {
    const faq = await content.getFaq();
    expect(faq.length).toBeGreaterThanOrEqual(15);
    expect(faq.filter((item) => item.featured)).toHaveLength(5);
    for (const item of faq) expect(item.answerText.length, item.question).toBeGreaterThan(30);
    expect(new Set(faq.map((item) => item.category)).size).toBeGreaterThanOrEqual(4);
  });

  it('gives the local service images and menus', async () => {
    const images = await content.getServiceImages();
    expect(images).toHaveLength(SERVICE_IDS.length);
    expect((await content.getMenu('ressources'))?.items[0]).toEqual({ title: 'Blog', path: '/blog' });
    expect(await content.getMenu('inconnu')).toBeNull();
  });

  it('is written in correct French typography, with every placeholder filled', async () => {
    const french = [
      ...(await content.getPages()).filter((p) => p.lang === 'fr').map((p) => [p.slug, p.html, p.title, p.intro]),
      ...(await content.getServices()).map((s) => [s.slug, s.html, s.headline, s.intro, s.description]),
      ...(await Promise.all((await content.getPosts({ limit: 50 })).map((p) => content.getPost(p.slug)))).map((p) => [
        p?.slug,
        p?.html,
        p?.title,
        p?.excerpt,
      ]),
      ...(await content.getFaq()).map((f) => [f.id, f.answerHtml, f.question]),
    ] as string[][];
    for (const [name, ...texts] of french) {
      for (const html of texts) {
        const text = fillPricePlaceholders(htmlToText(html ?? ''), DEFAULT_PRICE_LIST);
        expect(text, `${name}: ${text.match(/.{0,30}[ \u00A0][;:!?»].{0,10}/)?.[0]}`).not.toMatch(BAD_FRENCH_SPACING);
        expect(text, name).not.toContain('{{');
        expect(text, name).not.toContain(PRICE_ON_REQUEST);
      }
    }
    const english = await content.getPage('legal-notice');
    expect(english?.html).toContain('Registered office:');
    expect(english?.html).not.toContain('\u202F:');
  });
});

describe('Markdown', () => {
  it('gives headings ids and a table of contents, sized lazy images and scrollable tables', () => {
    const { html, toc } = renderMarkdown(
      [
        '## Les prix : tout savoir',
        '',
        'Texte avec [un lien](https://www.cnil.fr) et [un autre](/contact).',
        '',
        '![Une photo](/images/x.svg "640x360")',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
        '',
        '## Les prix : tout savoir',
        '',
        '### Détail',
        '',
        '# Titre de niveau 1',
      ].join('\n'),
    );
    expect(toc).toEqual([
      { id: 'les-prix-tout-savoir', title: 'Les prix\u202F: tout savoir' },
      { id: 'les-prix-tout-savoir-2', title: 'Les prix\u202F: tout savoir' },
    ]);
    expect(html).toContain('<h2 id="les-prix-tout-savoir">Les prix\u202F: tout savoir</h2>');
    expect(html).toContain('<a href="https://www.cnil.fr" rel="noopener noreferrer">un lien</a>');
    expect(html).toContain('<a href="/contact">un autre</a>');
    expect(html).toContain(
      '<img src="/images/x.svg" alt="Une photo" width="640" height="360" loading="lazy" decoding="async">',
    );
    expect(html).toContain(
      '<div class="table-scroll" tabindex="0" role="region" aria-label="Tableau, défilable horizontalement"><table>',
    );
    expect(html).toContain('<h3 id="detail">Détail</h3>');
    // Content starts at level 2: the page's title is its only h1.
    expect(html).toContain('<h2 id="titre-de-niveau-1">Titre de niveau 1</h2>');
    expect(html).not.toContain('<h1');
  });

  it('fills the company placeholders and leaves code alone', () => {
    const { html } = renderMarkdown('SIREN {{entreprise.siren}} ; `a : b` {{entreprise.inconnu}}');
    expect(html).toContain('SIREN 912\u202F345\u202F678\u202F;');
    expect(html).toContain('<code>a : b</code>');
    expect(html).toContain('{{entreprise.inconnu}}');
  });
});

describe('a content folder with mistakes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-bad-content-'));
    await fs.mkdir(path.join(dir, 'pages'));
    await fs.writeFile(path.join(dir, 'pages', 'casse.md'), '---\ntitle: Horaires : 9h\n---\n\nTexte.\n');
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it('names the file whose front matter is invalid, every time', async () => {
    const broken = createLocalSource({ dir, cache: false });
    await expect(broken.getPages()).rejects.toThrow('content/pages/casse.md: invalid front matter');
    await expect(broken.getPages()).rejects.toThrow('content/pages/casse.md');
  });

  it('has no posts, services or FAQ when their folders are missing', async () => {
    const empty = createLocalSource({ dir: path.join(dir, 'nope'), cache: false });
    expect(await empty.getPosts()).toEqual([]);
    expect(await empty.getFaq()).toEqual([]);
    expect(await empty.getService('vhs')).toBeNull();
  });
});
