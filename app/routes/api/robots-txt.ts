import { buildRobotsTxt } from '~/domain/content/site-pages';
import { siteOrigin } from '~/server/content/site.server';

/** GET /robots.txt: everything may be crawled but the private areas; the sitemap's address. */
export function loader() {
  return new Response(buildRobotsTxt(siteOrigin()), {
    headers: {
      'Content-Type': 'text/plain; charset=utf-8',
      'Cache-Control': 'public, max-age=3600, stale-while-revalidate=86400',
    },
  });
}
