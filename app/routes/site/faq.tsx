import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { FaqList } from '~/components/site/faq-list';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, faqPage, seoMeta } from '~/domain/content/seo';
import { fillPricePlaceholders } from '~/domain/content/service-prices';
import type { FaqItem } from '~/domain/content/types';
import { frenchProse as fr, slugify } from '~/domain/content/typography';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadFaq } from '~/server/content/source.server';
import type { Route } from './+types/faq';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Questions fréquentes', path: '/faq' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Questions fréquentes sur la numérisation',
    description: fr(
      'Envoi de vos souvenirs, délais, formats de fichiers, résolution, prix, retour des originaux : les réponses à vos questions sur la numérisation chez Soovenirs.',
    ),
    path: '/faq',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const [items, priceList] = await Promise.all([loadFaq(), loadPriceList()]);
  const filled: FaqItem[] = items.map((item) => ({
    ...item,
    answerHtml: fillPricePlaceholders(item.answerHtml, priceList),
    answerText: fillPricePlaceholders(item.answerText, priceList),
  }));
  const groups: { category: string; items: FaqItem[] }[] = [];
  for (const item of filled) {
    const group = groups.find((g) => g.category === item.category);
    if (group) group.items.push(item);
    else groups.push({ category: item.category, items: [item] });
  }
  const origin = siteOrigin();
  return data(
    { origin, groups, structuredData: [faqPage(filled), breadcrumbList(origin, CRUMBS)] },
    { headers: pageCacheHeaders(request) },
  );
}

export default function Faq({ loaderData }: Route.ComponentProps) {
  const { groups, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Aide"
        title="Questions fréquentes"
        intro={
          <p>
            {fr('Les réponses aux questions que l’on nous pose le plus souvent. La vôtre n’y est pas ? ')}
            <Link to="/contact" className="font-medium text-primary underline underline-offset-4">
              Écrivez-nous
            </Link>
            {fr(', nous répondons sous un jour ouvré.')}
          </p>
        }
      />
      <div className="mx-auto grid w-full max-w-7xl grid-cols-1 gap-10 px-4 pb-16 sm:px-6 lg:grid-cols-[16rem_minmax(0,1fr)] lg:px-8">
        <nav aria-label="Thèmes" className="lg:sticky lg:top-[calc(var(--spacing-header)+1.5rem)] lg:self-start">
          <p className="mb-3 font-semibold text-sepia text-sm uppercase tracking-wider">Thèmes</p>
          <ol className="grid gap-2 border-border border-l pl-4 text-sm">
            {groups.map((group) => (
              <li key={group.category}>
                <a
                  href={`#${slugify(group.category)}`}
                  className="text-muted-foreground underline-offset-4 hover:text-primary hover:underline"
                >
                  {group.category}
                </a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="flex min-w-0 max-w-3xl flex-col gap-12">
          {groups.map((group) => (
            <section key={group.category} aria-labelledby={slugify(group.category)}>
              <h2 id={slugify(group.category)} className="mb-5 scroll-mt-header font-heading text-2xl">
                {group.category}
              </h2>
              <FaqList items={group.items} />
            </section>
          ))}
        </div>
      </div>
      <CallToAction
        title="Vous savez tout ?"
        text={fr('Estimez votre commande en ligne : le prix exact s’affiche au fur et à mesure de vos choix.')}
        secondary={{ label: 'Poser une autre question', to: '/contact' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
