import { ArrowRightIcon, CheckIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { ServiceCard } from '~/components/site/service-card';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta, serviceStructuredData } from '~/domain/content/seo';
import { fillPricePlaceholders, priceOptionGroups, servicePrice } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { getServiceEntry, resolveServiceId, SERVICE_CATALOGUE, SERVICE_CATEGORIES } from '~/domain/services';
import { loadPriceList, serviceCards, siteOrigin } from '~/server/content/site.server';
import { contentSource } from '~/server/content/source.server';
import type { Route } from './+types/service';

export const headers = publicPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: 'Page introuvable | Soovenirs' }, { name: 'robots', content: 'noindex' }];
  return seoMeta({
    title: loaderData.service.title,
    description: loaderData.service.description,
    path: loaderData.path,
    origin: loaderData.origin,
  });
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const id = resolveServiceId(params.serviceId);
  if (!id) throw data(null, { status: 404 });
  const origin = siteOrigin();
  const entry = getServiceEntry(id);
  const [priceList, content] = await Promise.all([loadPriceList(), contentSource().getService(id)]);
  const price = servicePrice(entry, priceList);
  const path = `/services/${id}`;
  const related = SERVICE_CATALOGUE.filter((s) => s.category === entry.category && s.id !== id)
    .concat(SERVICE_CATALOGUE.filter((s) => s.category !== entry.category && s.popular && s.id !== id))
    .slice(0, 3)
    .map((s) => s.id);
  const crumbs = [
    { name: 'Accueil', path: '/' },
    { name: 'Services', path: '/services' },
    { name: entry.title, path },
  ];
  const description = fillPricePlaceholders(content?.description || entry.summary, priceList);
  return data(
    {
      origin,
      path,
      crumbs,
      service: {
        id,
        title: entry.title,
        headline: content?.headline ?? entry.title,
        description,
        intro: fillPricePlaceholders(content?.intro || entry.summary, priceList),
        highlights: content?.highlights ?? [],
        specs: content?.specs ?? [],
        html: content ? fillPricePlaceholders(content.html, priceList) : '',
        image: entry.image,
        pricing: entry.pricing,
        category: SERVICE_CATEGORIES.find((c) => c.id === entry.category)?.title ?? '',
      },
      price,
      options: priceOptionGroups(entry, priceList),
      related: await serviceCards(related, priceList),
      structuredData: [
        serviceStructuredData(origin, {
          name: entry.title,
          description,
          path,
          cents: price.cents,
          unit: price.unit,
        }),
        breadcrumbList(origin, crumbs),
      ],
    },
    { headers: pageCacheHeaders(request) },
  );
}

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { service, price, options, related, crumbs, structuredData } = loaderData;
  const onQuote = service.pricing === 'quote';
  const mainAction = onQuote
    ? { label: 'Demander un devis sur mesure', to: '/contact?sujet=boite-soovenirs' }
    : { label: 'Estimer ma commande', to: '/configurateur' };
  return (
    <>
      <PageHeader
        crumbs={crumbs}
        kicker={service.category}
        title={service.headline}
        intro={<p>{service.intro}</p>}
        actions={
          <>
            <Button asChild variant="accent" size="lg">
              <Link to={mainAction.to}>
                {mainAction.label}
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to="/contact">Poser une question</Link>
            </Button>
          </>
        }
        aside={
          <img
            src={service.image}
            alt=""
            width={240}
            height={240}
            loading="lazy"
            className="mx-auto size-60 rotate-3 rounded-[17%] shadow-lg"
          />
        }
      />

      <div className="mx-auto grid w-full max-w-7xl gap-12 px-4 pb-16 sm:px-6 grid-cols-1 lg:grid-cols-[minmax(0,1fr)_22rem] lg:px-8">
        <div className="min-w-0">
          {service.highlights.length > 0 ? (
            <section aria-labelledby="points-forts" className="mb-10 rounded-xl border border-border bg-card p-6">
              <h2 id="points-forts" className="mb-4 font-heading text-2xl">
                En bref
              </h2>
              <ul className="grid gap-3 sm:grid-cols-2">
                {service.highlights.map((highlight) => (
                  <li key={highlight} className="flex gap-2">
                    <CheckIcon className="mt-1 size-4 shrink-0 text-success" aria-hidden="true" />
                    <span>{highlight}</span>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {service.html ? <Prose html={service.html} /> : null}
        </div>

        <aside
          aria-labelledby="tarif-titre"
          className="lg:sticky lg:top-[calc(var(--spacing-header)+1.5rem)] lg:self-start"
        >
          <div className="flex flex-col gap-5 rounded-xl border border-accent bg-card p-6 shadow-sm">
            <div>
              <h2 id="tarif-titre" className="font-heading text-xl">
                Tarif
              </h2>
              <p className="mt-2 font-heading font-semibold text-2xl text-primary">{price.label}</p>
              <p className="text-muted-foreground text-sm">
                {onQuote
                  ? fr('Composition et prix selon votre projet : nous vous répondons sous un jour ouvré.')
                  : 'Prix TTC, tarif en vigueur, sans minimum de commande.'}
              </p>
            </div>
            {options.map((group) => (
              <div key={`${group.title}-${group.options[0]?.label}`}>
                <h3 className="mb-2 font-sans font-semibold text-sm">{group.title}</h3>
                <dl className="grid gap-1 text-sm">
                  {group.options.map((option) => (
                    <div
                      key={option.label}
                      className="flex justify-between gap-3 border-border border-b pb-1 last:border-0"
                    >
                      <dt className="text-muted-foreground">{option.label}</dt>
                      <dd className="font-medium">{option.value}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            ))}
            {service.specs.length > 0 ? (
              <div>
                <h3 className="mb-2 font-sans font-semibold text-sm">Caractéristiques</h3>
                <dl className="grid gap-1 text-sm">
                  {service.specs.map((spec) => (
                    <div
                      key={spec.label}
                      className="flex justify-between gap-3 border-border border-b pb-1 last:border-0"
                    >
                      <dt className="text-muted-foreground">{spec.label}</dt>
                      <dd className="text-right font-medium">{spec.value}</dd>
                    </div>
                  ))}
                </dl>
              </div>
            ) : null}
            <Button asChild variant="accent" size="lg" className="w-full">
              <Link to={mainAction.to}>{mainAction.label}</Link>
            </Button>
          </div>
        </aside>
      </div>

      {related.length > 0 ? (
        <section aria-labelledby="voir-aussi" className="bg-muted">
          <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8">
            <h2 id="voir-aussi" className="mb-8 text-title">
              Vous avez aussi…
            </h2>
            <ul className="grid gap-5 md:grid-cols-3">
              {related.map((card) => (
                <li key={card.id}>
                  <ServiceCard service={card} />
                </li>
              ))}
            </ul>
          </div>
        </section>
      ) : null}

      <CallToAction
        title={fr('Combien pour vos souvenirs ?')}
        text={fr('Le configurateur additionne vos supports et vos options et affiche le prix exact, TTC.')}
        action={mainAction}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
