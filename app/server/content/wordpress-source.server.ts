import type { ContentSource, PostsQuery } from '~/domain/content/types';
import {
  asList,
  mapWpFaqItem,
  mapWpMedia,
  mapWpMenu,
  mapWpPage,
  mapWpPost,
  mapWpPostSummary,
  mapWpService,
  mapWpServiceImage,
  mapWpTaxonomy,
} from '~/domain/content/wordpress-mapping';
import { log } from '../log.server';
import { ContentApiError, ContentTimeoutError, ContentUnavailableError } from './errors.server';

/*
 * The optional WordPress source (WORDPRESS_API_URL), with this behaviour
 * (docs/content.md, « The WordPress source »):
 *  - GET on the base path: posts (limit, offset, category), post/{slug or id}, services,
 *    service/{slug}, pages, page/{slug or id}, categories, tags, faq, media/{id}, menu/{location},
 *    service-images;
 *  - each call gives up after 5 s; successful answers are kept 60 s per path, and the cache can be
 *    invalidated (all of it or the paths under a prefix);
 *  - a non-OK answer is an error whose message is the answer's `error` field or `Erreur {status}`,
 *    reported as "Erreur API WordPress" (except for service-images); a network failure is reported
 *    as "Erreur de connexion" (a time-out is not);
 *  - after any failure, posts, services and service images come from the local content; anything
 *    else fails with `Données non disponibles pour {path}`.
 * The browser's toasts of the prototype become log entries here: visitors see the fallback content.
 */

export const CONTENT_API_TIMEOUT_MS = 5_000;
export const CONTENT_CACHE_TTL_MS = 60_000;

export interface ContentNotice {
  /** The toast title: "Erreur API WordPress", "Erreur de connexion"… */
  title: 'Erreur API WordPress' | 'Erreur de connexion' | 'Délai dépassé' | 'Images des services';
  message: string;
  path: string;
  /** Whether local content was served instead. */
  fellBack: boolean;
}

interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

export interface WordPressSourceOptions {
  /** The content API's base URL, e.g. https://cms.soovenirs.fr/wp-json/soovenirs/v1 */
  baseUrl: string;
  /** Where posts, services and service images come from when the API fails. */
  fallback: ContentSource;
  fetch?: typeof fetch;
  timeoutMs?: number;
  cacheTtlMs?: number;
  /** The clock of the cache (ms). */
  now?: () => number;
  timers?: Timers;
  /** Called for each problem, in place of the prototype's toasts. Logs by default. */
  onNotice?: (notice: ContentNotice) => void;
}

export interface WordPressSource extends ContentSource {
  readonly kind: 'wordpress';
  /** Forgets the cached answers whose path starts with `prefix` (all of them without one). */
  invalidate(prefix?: string): number;
}

const SERVICE_IMAGES_ERROR = 'Impossible de charger les images des services.';

function defaultNotice(notice: ContentNotice) {
  log.warn({ path: notice.path, fellBack: notice.fellBack }, `${notice.title} : ${notice.message}`);
}

export function createWordPressSource(options: WordPressSourceOptions): WordPressSource {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? CONTENT_API_TIMEOUT_MS;
  const ttl = options.cacheTtlMs ?? CONTENT_CACHE_TTL_MS;
  const now = options.now ?? Date.now;
  const timers: Timers = options.timers ?? {
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  };
  const notify = options.onNotice ?? defaultNotice;
  const cache = new Map<string, { expiresAt: number; value: unknown }>();
  const inFlight = new Map<string, Promise<unknown>>();
  const fallback = options.fallback;

  async function request(path: string): Promise<unknown> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = timers.setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    try {
      const response = await doFetch(`${base}${path}`, {
        headers: { accept: 'application/json' },
        signal: controller.signal,
      });
      const body: unknown = await response.json().catch(() => undefined);
      if (!response.ok) {
        const field = body && typeof body === 'object' ? (body as Record<string, unknown>).error : undefined;
        const message = typeof field === 'string' && field.trim() !== '' ? field : `Erreur ${response.status}`;
        throw new ContentApiError(message, response.status);
      }
      if (body === undefined) throw new ContentApiError('Réponse invalide du serveur de contenu', response.status);
      return body;
    } catch (error) {
      if (timedOut) throw new ContentTimeoutError(path, timeoutMs);
      throw error;
    } finally {
      timers.clearTimeout(timer);
    }
  }

  /** The answer for `path`, from the cache while it is fresh (60 s). */
  async function get(path: string): Promise<unknown> {
    const cached = cache.get(path);
    if (cached && cached.expiresAt > now()) return cached.value;
    const pending = inFlight.get(path);
    if (pending) return pending;
    const promise = request(path)
      .then((value) => {
        cache.set(path, { expiresAt: now() + ttl, value });
        return value;
      })
      .finally(() => inFlight.delete(path));
    inFlight.set(path, promise);
    return promise;
  }

  function report(path: string, error: unknown, fellBack: boolean) {
    const message = error instanceof Error ? error.message : String(error);
    const isServiceImages = path === '/service-images';
    if (error instanceof ContentApiError) {
      if (!isServiceImages) notify({ title: 'Erreur API WordPress', message, path, fellBack });
    } else if (error instanceof ContentTimeoutError) {
      notify({ title: 'Délai dépassé', message, path, fellBack });
    } else {
      notify({ title: 'Erreur de connexion', message, path, fellBack });
    }
    if (isServiceImages) notify({ title: 'Images des services', message: SERVICE_IMAGES_ERROR, path, fellBack });
  }

  /** Asks the API; on failure, the local content when the data has one, else the error. */
  async function call<T>(path: string, map: (body: unknown) => T, local?: () => Promise<T>): Promise<T> {
    let body: unknown;
    try {
      body = await get(path);
    } catch (error) {
      report(path, error, local !== undefined);
      if (local) return local();
      throw new ContentUnavailableError(path, { cause: error });
    }
    return map(body);
  }

  const segment = (value: string) => `/${encodeURIComponent(value)}`;

  return {
    kind: 'wordpress',
    invalidate(prefix) {
      if (prefix === undefined) {
        const count = cache.size;
        cache.clear();
        return count;
      }
      let count = 0;
      for (const key of [...cache.keys()]) {
        if (key.startsWith(prefix)) {
          cache.delete(key);
          count += 1;
        }
      }
      return count;
    },
    getPosts(query: PostsQuery = {}) {
      const { limit = 10, offset = 0, category } = query;
      const params = new URLSearchParams({ limit: String(limit), offset: String(offset) });
      if (category) params.set('category', category);
      return call(
        `/posts?${params}`,
        (body) => asList(body).map(mapWpPostSummary),
        () => fallback.getPosts(query),
      );
    },
    getPost(slugOrId) {
      return call(`/post${segment(slugOrId)}`, mapWpPost, () => fallback.getPost(slugOrId));
    },
    getServices() {
      return call(
        '/services',
        (body) => asList(body).map(mapWpService),
        () => fallback.getServices(),
      );
    },
    getService(slug) {
      return call(`/service${segment(slug)}`, mapWpService, () => fallback.getService(slug));
    },
    getServiceImages() {
      return call(
        '/service-images',
        (body) => asList(body).map(mapWpServiceImage),
        () => fallback.getServiceImages(),
      );
    },
    getPages() {
      return call('/pages', (body) => asList(body).map(mapWpPage));
    },
    getPage(slugOrId) {
      return call(`/page${segment(slugOrId)}`, mapWpPage);
    },
    getCategories() {
      return call('/categories', (body) => asList(body).map(mapWpTaxonomy));
    },
    getTags() {
      return call('/tags', (body) => asList(body).map(mapWpTaxonomy));
    },
    getFaq() {
      return call('/faq', (body) => asList(body).map(mapWpFaqItem));
    },
    getMedia(id) {
      return call(`/media${segment(id)}`, mapWpMedia);
    },
    getMenu(location) {
      return call(`/menu${segment(location)}`, (body) => mapWpMenu(body, location));
    },
  };
}
