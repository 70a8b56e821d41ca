import { data } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { formatLongDate } from '~/components/site/dates';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta } from '~/domain/content/seo';
import { fillPricePlaceholders } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { TERMS_PAGE_SLUG, termsVersionNotice } from '~/domain/terms';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadSitePage } from '~/server/content/source.server';
import type { Route } from './+types/content-page';

/*
 * The information and legal pages written in content/pages/{slug}.md: one module registered once
 * per URL in app/routes.ts, the slug being the path.
 */

export const headers = publicPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page introuvable | Soovenirs' }, { name: 'robots', content: 'noindex' }];
  const { page, origin } = loaderData;
  return seoMeta({
    title: page.title,
    description: page.description,
    path: `/${page.slug}`,
    origin,
    locale: page.lang === 'en' ? 'en_GB' : 'fr_FR',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const slug = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+|\/+$/g, '');
  const [page, priceList] = await Promise.all([loadSitePage(slug), loadPriceList()]);
  if (!page) throw data(null, { status: 404 });
  const origin = siteOrigin();
  const crumbs = [
    { name: 'Accueil', path: '/' },
    { name: page.title, path: `/${slug}` },
  ];
  return data(
    {
      origin,
      crumbs,
      page: { ...page, slug, html: fillPricePlaceholders(page.html, priceList) },
      structuredData: breadcrumbList(origin, crumbs),
    },
    { headers: pageCacheHeaders(request) },
  );
}

export default function ContentPage({ loaderData }: Route.ComponentProps) {
  const { page, crumbs, structuredData } = loaderData;
  const legal = page.layout === 'legal';
  const english = page.lang === 'en';
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        kicker={page.kicker || undefined}
        title={page.title}
        lang={page.lang}
        intro={page.intro || page.modified ? <PageIntro page={page} /> : undefined}
      />
      <div
        className={
          page.toc.length > 2
            ? 'mx-auto grid w-full max-w-7xl grid-cols-1 gap-10 px-4 pb-16 sm:px-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:px-8'
            : 'mx-auto w-full max-w-3xl px-4 pb-16 sm:px-6'
        }
      >
        {page.toc.length > 2 ? <TableOfContents toc={page.toc} english={english} /> : null}
        <Prose html={page.html} lang={page.lang} className="min-w-0 max-w-3xl" />
      </div>
      {legal ? null : (
        <CallToAction
          title={fr('Une question, un projet ?')}
          text={fr('Estimez votre commande en ligne, ou écrivez-nous : nous répondons sous un jour ouvré.')}
          secondary={{ label: 'Nous contacter', to: '/contact' }}
        />
      )}
      <JsonLd data={structuredData} />
    </>
  );
}

type Page = Route.ComponentProps['loaderData']['page'];

/** The date a page was last updated, in the page's language. */
function lastUpdated(page: Page, english: boolean): string {
  if (!page.modified) return '';
  if (!english) return formatLongDate(page.modified);
  return new Date(page.modified).toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'Europe/Paris' });
}

/**
 * Under the title: the page's intro, and for a legal page the date it was last updated (the terms
 * also say which version the registration dialog and the checkout's box name, domain/terms.ts).
 */
function PageIntro({ page }: { page: Page }) {
  const english = page.lang === 'en';
  return (
    <div className="flex flex-col gap-3" lang={english ? 'en' : undefined}>
      {page.intro ? <p>{page.intro}</p> : null}
      {page.layout === 'legal' && page.modified ? (
        <p className="text-sm">
          {english ? 'Last updated: ' : fr('Dernière mise à jour : ')}
          <time dateTime={page.modified}>{lastUpdated(page, english)}</time>
        </p>
      ) : null}
      {page.slug === TERMS_PAGE_SLUG && page.modified ? (
        <p className="font-semibold text-sm">{termsVersionNotice(page.modified)}</p>
      ) : null}
    </div>
  );
}

/** The sommaire beside a long page (more than two headings), sticky on a wide screen. */
function TableOfContents({ toc, english }: { toc: Page['toc']; english: boolean }) {
  return (
    <nav
      aria-label={english ? 'Contents' : 'Sommaire'}
      lang={english ? 'en' : undefined}
      className="lg:sticky lg:top-[calc(var(--spacing-header)+1.5rem)] lg:self-start"
    >
      <p className="mb-3 font-semibold text-sepia text-sm uppercase tracking-wider">
        {english ? 'Contents' : 'Sommaire'}
      </p>
      <ol className="grid gap-2 border-border border-l pl-4 text-sm">
        {toc.map((entry) => (
          <li key={entry.id}>
            <a
              href={`#${entry.id}`}
              className="text-muted-foreground underline-offset-4 hover:text-primary hover:underline"
            >
              {entry.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
