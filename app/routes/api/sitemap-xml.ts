import { buildSitemapXml, type SitemapEntry, STATIC_PUBLIC_PAGES } from '~/domain/content/site-pages';
import { siteOrigin } from '~/server/content/site.server';
import { contentSource } from '~/server/content/source.server';
import { log } from '~/server/log.server';

/** GET /sitemap.xml: every public page, and every post of the blog. */
export async function loader() {
  let posts: SitemapEntry[] = [];
  try {
    const summaries = await contentSource().getPosts({ limit: 1000 });
    posts = summaries.map((post) => ({
      path: `/blog/${post.slug}`,
      lastModified: post.modified || post.date,
      changeFrequency: 'yearly' as const,
      priority: 0.6,
    }));
  } catch (error) {
    log.error({ err: error }, 'sitemap: the posts could not be listed');
  }
  const xml = buildSitemapXml(siteOrigin(), [...STATIC_PUBLIC_PAGES, ...posts]);
  return new Response(xml, {
    headers: {
      'Content-Type': 'application/xml; charset=utf-8',
      'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400',
    },
  });
}
