import type { ContentPage, ContentSource, FaqItem } from '~/domain/content/types';
import { broadcast } from '../db/broadcast.server';
import { env } from '../env.server';
import { log } from '../log.server';
import { bumpLocalPageVersion } from '../page-versions.server';
import { ContentUnavailableError } from './errors.server';
import { createLocalSource } from './local-source.server';
import { createWordPressSource, type WordPressSource } from './wordpress-source.server';

/*
 * The content source of this process: the local Markdown of content/, or WordPress when
 * WORDPRESS_API_URL is set (with the local content as its fallback).
 */

type Sources = { local: ContentSource; active: ContentSource };
// Made on first use, when the environment has been read.
let contentSources: Sources | undefined;

function sources(): Sources {
  if (!contentSources) {
    const local = createLocalSource();
    const baseUrl = env().WORDPRESS_API_URL;
    contentSources = { local, active: baseUrl ? createWordPressSource({ baseUrl, fallback: local }) : local };
  }
  return contentSources;
}

export function contentSource(): ContentSource {
  return sources().active;
}

export function localContentSource(): ContentSource {
  return sources().local;
}

/**
 * Empties the WordPress cache (all of it, or the paths under `prefix`) of every instance; returns
 * how many answers this process forgot (0 with the local source).
 */
export async function invalidateContentCache(prefix?: string): Promise<number> {
  const removed = invalidateLocalContentCache(prefix);
  await broadcast({ topic: 'content', prefix });
  return removed;
}

/** This process only (another instance was asked, or its messages may have been missed). */
export function invalidateLocalContentCache(prefix?: string): number {
  const active = sources().active;
  // Cached public pages (server/html-cache.ts) are rendered afresh too, even with the local source.
  bumpLocalPageVersion('content');
  return active.kind === 'wordpress' ? (active as WordPressSource).invalidate(prefix) : 0;
}

/**
 * A page of the site. A page could have no fallback when the API fails; a shop whose
 * legal and information pages vanish with its CMS would be worse, so the site serves the local
 * copy of the page then, and says so in the log.
 */
export async function loadSitePage(slug: string): Promise<ContentPage | null> {
  try {
    const page = await contentSource().getPage(slug);
    if (page) return page;
  } catch (error) {
    if (!(error instanceof ContentUnavailableError)) throw error;
    log.warn({ slug }, `${error.message} : copie locale servie`);
  }
  return contentSource().kind === 'local' ? null : localContentSource().getPage(slug);
}

/** The FAQ, with the same local safety net as the pages. */
export async function loadFaq(): Promise<FaqItem[]> {
  try {
    return await contentSource().getFaq();
  } catch (error) {
    if (!(error instanceof ContentUnavailableError)) throw error;
    log.warn(`${error.message} : copie locale servie`);
    return localContentSource().getFaq();
  }
}
