/*
 * Versions of what the public pages show, for the in-memory HTML cache of server/html-cache.ts:
 * the price list (published from the back office) and the content (WordPress invalidation). A
 * change bumps a number; cached pages are keyed by these numbers, so the next request renders
 * afresh. Kept on globalThis because the Express server (run by tsx) and the built app bundle
 * each load their own copy of this module.
 *
 * Several instances share one database: a bump is also broadcast (db/broadcast.server.ts), and
 * every other process bumps its own number on receiving it (shared-caches.server.ts), so that its
 * cached pages are rendered afresh within a second too.
 */

import { broadcast } from './db/broadcast.server';

export type PageVersionKind = 'priceList' | 'content';

const KEY = Symbol.for('soovenirs.page-versions');
type WithVersions = typeof globalThis & { [KEY]?: Record<PageVersionKind, number> };

function versions(): Record<PageVersionKind, number> {
  const g = globalThis as WithVersions;
  g[KEY] ??= { priceList: 0, content: 0 };
  return g[KEY];
}

/**
 * Called after a change has been committed: pages rendered before it are no longer served, here at
 * once and on the other instances when the returned promise settles (it never rejects).
 */
export async function bumpPageVersion(kind: PageVersionKind): Promise<void> {
  bumpLocalPageVersion(kind);
  await broadcast({ topic: 'page-version', page: kind });
}

/** This process only: another instance made the change. */
export function bumpLocalPageVersion(kind: PageVersionKind): void {
  versions()[kind] += 1;
}

/** e.g. "p3.c1": part of every cached page's key. */
export function pageVersionKey(): string {
  const v = versions();
  return `p${v.priceList}.c${v.content}`;
}
