import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ContentTimeoutError, ContentUnavailableError } from './errors.server';
import { createLocalSource } from './local-source.server';
import {
  CONTENT_API_TIMEOUT_MS,
  CONTENT_CACHE_TTL_MS,
  type ContentNotice,
  createWordPressSource,
} from './wordpress-source.server';

/*
 * The WordPress source against a local fake WordPress (a real HTTP server on a free port): normal
 * answers, non-OK answers, a server that never answers (the 5 s time-out, with an injected timer
 * so that the test does not wait 5 s), a refused connection, the local fallback and the 60 s
 * cache (with an injected clock).
 */

type Route = (url: URL) => { status: number; body?: unknown } | 'hang';

let server: http.Server;
let baseUrl: string;
let route: Route = () => ({ status: 404 });
const requests: string[] = [];
const hanging: http.ServerResponse[] = [];
let contentDir: string;

const WP_POST = {
  id: 101,
  title: 'Conserver ses négatifs',
  content: '<p>Des pochettes neutres, <em>à l’abri</em> de la lumière.</p>',
  excerpt: 'Le bon rangement.',
  slug: 'conserver-negatifs',
  date: '2026-06-01T09:00:00',
  modified: '2026-06-02T09:00:00',
  author: 'Claire',
  comment_count: 0,
  thumbnail: null,
  categories: ['Conseils'],
  tags: ['négatifs'],
  meta: {},
};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const answer = route(url);
    if (answer === 'hang') {
      hanging.push(res);
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/soovenirs/v1`;

  // A small local content folder: the fallback's data is known exactly.
  contentDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-content-'));
  await fs.mkdir(path.join(contentDir, 'posts'));
  await fs.mkdir(path.join(contentDir, 'services'));
  await fs.writeFile(
    path.join(contentDir, 'posts', 'local-post.md'),
    '---\ntitle: Un article local\ndate: 2026-01-10\ncategories: [Conseils]\n---\n\nTexte local.\n',
  );
  await fs.writeFile(path.join(contentDir, 'services', 'vhs.md'), '---\ntitle: VHS locales\n---\n\nCorps.\n');
});

afterEach(() => {
  requests.length = 0;
  for (const res of hanging.splice(0)) res.destroy();
  route = () => ({ status: 404 });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(contentDir, { recursive: true, force: true });
});

function source(options: { now?: () => number; timers?: Parameters<typeof createWordPressSource>[0]['timers'] } = {}) {
  const notices: ContentNotice[] = [];
  const wordpress = createWordPressSource({
    baseUrl,
    fallback: createLocalSource({ dir: contentDir, cache: false }),
    onNotice: (notice) => notices.push(notice),
    ...options,
  });
  return { wordpress, notices };
}

describe('the WordPress source', () => {
  it('reads the shop endpoint’s routes and maps their answers', async () => {
    route = (url) => {
      switch (url.pathname.replace('/wp-json/soovenirs/v1', '')) {
        case '/posts':
          return { status: 200, body: [WP_POST] };
        case '/post/conserver-negatifs':
          return { status: 200, body: WP_POST };
        case '/services':
          return { status: 200, body: [{ slug: 'vhs', title: 'VHS', content: '<p>Texte</p>' }] };
        case '/page/cgv':
          return { status: 200, body: { slug: 'cgv', title: 'CGV', content: '<p>x</p>' } };
        case '/categories':
          return { status: 200, body: [{ id: 1, name: 'Conseils', count: 2 }] };
        case '/menu/pied':
          return { status: 200, body: { items: [{ title: 'Blog', path: '/blog' }] } };
        case '/service-images':
          return { status: 200, body: [{ service_slug: 'vhs', image_url: '/v.png', is_default: true }] };
        default:
          return { status: 404 };
      }
    };
    const { wordpress, notices } = source();
    const posts = await wordpress.getPosts({ limit: 5, offset: 10, category: 'conseils' });
    expect(posts).toMatchObject([{ id: '101', slug: 'conserver-negatifs', title: 'Conserver ses négatifs' }]);
    expect(requests).toEqual(['/wp-json/soovenirs/v1/posts?limit=5&offset=10&category=conseils']);
    expect((await wordpress.getPost('conserver-negatifs'))?.html).toBe(
      '<p>Des pochettes neutres, <em>à l’abri</em> de la lumière.</p>',
    );
    expect((await wordpress.getServices())[0]?.slug).toBe('vhs');
    expect((await wordpress.getPage('cgv'))?.title).toBe('CGV');
    expect(await wordpress.getCategories()).toEqual([{ id: '1', slug: 'conseils', name: 'Conseils', count: 2 }]);
    expect(await wordpress.getMenu('pied')).toEqual({ location: 'pied', items: [{ title: 'Blog', path: '/blog' }] });
    expect((await wordpress.getServiceImages())[0]).toMatchObject({ serviceSlug: 'vhs', isDefault: true });
    expect(notices).toEqual([]);
  });

  it('reports a non-OK answer with its error field, and serves the local posts instead', async () => {
    route = () => ({ status: 503, body: { error: 'Maintenance en cours' } });
    const { wordpress, notices } = source();
    const posts = await wordpress.getPosts();
    expect(posts.map((p) => p.title)).toEqual(['Un article local']);
    expect(notices).toEqual([
      {
        title: 'Erreur API WordPress',
        message: 'Maintenance en cours',
        path: '/posts?limit=10&offset=0',
        fellBack: true,
      },
    ]);
    expect((await wordpress.getService('vhs'))?.title).toBe('VHS locales');
  });

  it('says "Erreur {status}" without an error field, and "Données non disponibles pour {path}" without a fallback', async () => {
    route = () => ({ status: 500, body: { message: 'ignored' } });
    const { wordpress, notices } = source();
    const failure = wordpress.getPage('cgv');
    await expect(failure).rejects.toBeInstanceOf(ContentUnavailableError);
    await expect(failure).rejects.toThrow('Données non disponibles pour /page/cgv');
    await expect(wordpress.getFaq()).rejects.toThrow('Données non disponibles pour /faq');
    expect(notices[0]).toEqual({
      title: 'Erreur API WordPress',
      message: 'Erreur 500',
      path: '/page/cgv',
      fellBack: false,
    });
  });

  it('falls back to the local service images without an API error notice', async () => {
    route = () => ({ status: 502 });
    const { wordpress, notices } = source();
    const images = await wordpress.getServiceImages();
    expect(images.find((i) => i.serviceSlug === 'vhs')?.imageUrl).toBe('/images/services/vhs.svg');
    expect(notices.map((n) => [n.title, n.message])).toEqual([
      ['Images des services', 'Impossible de charger les images des services.'],
    ]);
  });

  it('gives up after 5 s (an injected timer), falls back, and does not call it a connection error', async () => {
    route = () => 'hang';
    const delays: number[] = [];
    const timers = {
      // The source asks for its time-out; the test fires it after 50 ms of real time.
      setTimeout: (callback: () => void, ms: number) => {
        delays.push(ms);
        return setTimeout(callback, 50);
      },
      clearTimeout: (handle: unknown) => clearTimeout(handle as NodeJS.Timeout),
    };
    const { wordpress, notices } = source({ timers });
    const started = Date.now();
    const posts = await wordpress.getPosts();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(delays).toEqual([CONTENT_API_TIMEOUT_MS]);
    expect(CONTENT_API_TIMEOUT_MS).toBe(5000);
    expect(posts.map((p) => p.title)).toEqual(['Un article local']);
    expect(notices).toEqual([
      {
        title: 'Délai dépassé',
        message: 'Délai dépassé (5 s) pour /posts?limit=10&offset=0',
        path: '/posts?limit=10&offset=0',
        fellBack: true,
      },
    ]);
    expect(notices.some((n) => n.title === 'Erreur de connexion')).toBe(false);

    const page = wordpress.getPage('cgv');
    await expect(page).rejects.toThrow('Données non disponibles pour /page/cgv');
    await expect(page.catch((error: Error) => error.cause)).resolves.toBeInstanceOf(ContentTimeoutError);
  });

  it('reports a refused connection as "Erreur de connexion"', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const notices: ContentNotice[] = [];
    const wordpress = createWordPressSource({
      baseUrl: `http://127.0.0.1:${port}`,
      fallback: createLocalSource({ dir: contentDir, cache: false }),
      onNotice: (n) => notices.push(n),
    });
    expect((await wordpress.getPosts()).length).toBe(1);
    expect(notices[0]?.title).toBe('Erreur de connexion');
    await expect(wordpress.getTags()).rejects.toThrow('Données non disponibles pour /tags');
  });

  it('keeps answers 60 s (an injected clock), and forgets them when invalidated', async () => {
    route = () => ({ status: 200, body: [WP_POST] });
    let now = 1_000_000;
    const { wordpress } = source({ now: () => now });
    expect(CONTENT_CACHE_TTL_MS).toBe(60_000);

    await wordpress.getPosts();
    await wordpress.getPosts();
    expect(requests).toHaveLength(1);

    now += 59_999;
    await wordpress.getPosts();
    expect(requests).toHaveLength(1);

    now += 1;
    await wordpress.getPosts();
    expect(requests).toHaveLength(2);

    // Invalidating a prefix forgets those paths only; invalidating everything forgets the rest.
    await wordpress.getCategories();
    expect(wordpress.invalidate('/posts')).toBe(1);
    await wordpress.getPosts();
    await wordpress.getCategories();
    expect(requests).toHaveLength(4);

    expect(wordpress.invalidate()).toBe(2);
    await wordpress.getPosts();
    expect(requests).toHaveLength(5);
  });

  it('does not keep failures: the next call asks again', async () => {
    route = () => ({ status: 500 });
    const { wordpress } = source();
    await wordpress.getPosts();
    route = () => ({ status: 200, body: [WP_POST] });
    expect((await wordpress.getPosts())[0]?.slug).toBe('conserver-negatifs');
    expect(requests).toHaveLength(2);
  });

  it('asks once for concurrent calls of the same path', async () => {
    route = () => ({ status: 200, body: [WP_POST] });
    const { wordpress } = source();
    await Promise.all([wordpress.getPosts(), wordpress.getPosts(), wordpress.getPosts()]);
    expect(requests).toHaveLength(1);
  });
});
