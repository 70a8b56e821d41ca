/*
 * Versions of what the public pages show, for the in-memory HTML cache of server/html-cache.ts:
 * the price list (published from the back office) and the content (WordPress invalidation). A
 * change bumps a number; cached pages are keyed by these numbers, so the next request renders
 * afresh. The HTML cache and the pages that bump share this module's numbers: the server bundle
 * loads it once (docs/decisions/033).
 *
 * Several instances share one database: a bump is also broadcast (db/broadcast.server.ts), and
 * every other process bumps its own number on receiving it (shared-caches.server.ts), so that its
 * cached pages are rendered afresh within a second too.
 */

import { broadcast } from './db/broadcast.server';

export type PageVersionKind = 'priceList' | 'content';

const pageVersions: Record<PageVersionKind, number> = { priceList: 0, content: 0 };

function versions(): Record<PageVersionKind, number> {
  return pageVersions;
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
