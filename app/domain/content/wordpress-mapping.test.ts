import { describe, expect, it } from 'vitest';
import {
  asList,
  mapWpFaqItem,
  mapWpMedia,
  mapWpMenu,
  mapWpPage,
  mapWpPost,
  mapWpService,
  mapWpServiceImage,
  mapWpTaxonomy,
} from './wordpress-mapping';

describe('WordPress answers to content shapes', () => {
  it('maps a post of the shop’s endpoint (its documented fields)', () => {
    const post = mapWpPost({
      id: 42,
      title: 'Numériser ses diapositives&nbsp;: le guide',
      content: '<p>Un texte <script>alert(1)</script>de plusieurs mots.</p><h1>Partie</h1>',
      excerpt: '<p>Le résumé &#8217;court&#8217;.</p>',
      slug: 'guide-diapositives',
      date: '2026-04-01T10:00:00',
      modified: '2026-04-02T11:00:00+02:00',
      author: 'Claire',
      comment_count: 3,
      thumbnail: { url: 'https://cms.example/wp-content/a.jpg', alt: 'Des diapositives', width: 800, height: 450 },
      categories: [{ name: 'Conseils' }, 'Photo'],
      tags: ['diapositives'],
      meta: { description: 'Pour bien choisir.' },
    });
    expect(post).toMatchObject({
      id: '42',
      slug: 'guide-diapositives',
      title: 'Numériser ses diapositives\u00A0: le guide',
      excerpt: 'Le résumé ’court’.',
      description: 'Pour bien choisir.',
      date: '2026-04-01T10:00:00.000Z',
      modified: '2026-04-02T09:00:00.000Z',
      author: 'Claire',
      commentCount: 3,
      categories: ['Conseils', 'Photo'],
      tags: ['diapositives'],
      thumbnail: { url: 'https://cms.example/wp-content/a.jpg', alt: 'Des diapositives', width: 800, height: 450 },
    });
    expect(post.html).toBe('<p>Un texte de plusieurs mots.</p><h2>Partie</h2>');
  });

  it('accepts WordPress core shapes and fills what is missing', () => {
    const post = mapWpPost({
      id: 7,
      title: { rendered: 'Titre' },
      content: { rendered: '<p>Corps</p>' },
      excerpt: { rendered: '' },
      slug: 'titre',
      date: 'pas une date',
      author: 12,
      _embedded: { author: [{ name: 'Julien' }] },
    });
    expect(post).toMatchObject({
      title: 'Titre',
      excerpt: 'Corps',
      author: 'Julien',
      date: '',
      thumbnail: null,
      commentCount: 0,
    });
    expect(mapWpPost({}).author).toBe('L’équipe Soovenirs');
  });

  it('maps pages, services, images, taxonomies, FAQ, media and menus', () => {
    expect(
      mapWpPage({
        id: 3,
        slug: 'cgv',
        title: 'CGV',
        content: '<h2 id="prix">Prix</h2><p>x</p>',
        meta: { layout: 'legal' },
      }),
    ).toMatchObject({
      slug: 'cgv',
      layout: 'legal',
      lang: 'fr',
      toc: [{ id: 'prix', title: 'Prix' }],
    });
    expect(
      mapWpService({
        slug: 'vhs',
        title: 'VHS',
        content: '<p>Texte</p>',
        specs: [{ label: 'Format', value: 'MP4' }, {}],
      }),
    ).toMatchObject({
      slug: 'vhs',
      headline: 'VHS',
      intro: 'Texte',
      specs: [{ label: 'Format', value: 'MP4' }],
    });
    expect(
      mapWpServiceImage({
        service_slug: 'vhs',
        service_title: 'VHS',
        image_url: '/x.png',
        service_id: 5,
        is_default: '1',
      }),
    ).toEqual({ serviceSlug: 'vhs', serviceTitle: 'VHS', imageUrl: '/x.png', serviceId: '5', isDefault: true });
    expect(mapWpTaxonomy({ id: 1, name: 'Vidéo', count: '4' })).toEqual({
      id: '1',
      slug: 'video',
      name: 'Vidéo',
      count: 4,
    });
    expect(
      mapWpFaqItem({ question: 'Délai ?', answer: '<p>Deux semaines.</p>', category: 'Livraison' }, 0),
    ).toMatchObject({
      id: 'delai-0',
      answerText: 'Deux semaines.',
      category: 'Livraison',
      featured: false,
    });
    expect(
      mapWpMedia({
        id: 9,
        source_url: '/m.jpg',
        alt_text: 'M',
        media_details: { width: 10, height: 5 },
        mime_type: 'image/jpeg',
      }),
    ).toEqual({
      id: '9',
      url: '/m.jpg',
      alt: 'M',
      width: 10,
      height: 5,
      mimeType: 'image/jpeg',
    });
    expect(mapWpMenu({ items: [{ title: 'Blog', url: '/blog' }, { title: '' }] }, 'pied')).toEqual({
      location: 'pied',
      items: [{ title: 'Blog', path: '/blog' }],
    });
    expect(asList({ data: [1, 2] })).toEqual([1, 2]);
    expect(asList({ nope: true })).toEqual([]);
  });
});
