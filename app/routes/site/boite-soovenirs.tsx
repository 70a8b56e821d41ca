import { ArrowRightIcon, BoxIcon, HeartHandshakeIcon, PackageCheckIcon, UsbIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta, serviceStructuredData } from '~/domain/content/seo';
import { fillPricePlaceholders, servicePrice } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { getServiceEntry } from '~/domain/services';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadSitePage } from '~/server/content/source.server';
import type { Route } from './+types/boite-soovenirs';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'La boîte Soovenirs', path: '/boite-soovenirs' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: loaderData?.title ?? 'La boîte Soovenirs',
    description:
      loaderData?.description ??
      fr(
        'Un coffret pour rassembler vos souvenirs, les envoyer à notre atelier et les garder, numérisés, pour toujours.',
      ),
    path: '/boite-soovenirs',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const [page, priceList] = await Promise.all([loadSitePage('boite-soovenirs'), loadPriceList()]);
  const origin = siteOrigin();
  const entry = getServiceEntry('soovenirs');
  const price = servicePrice(entry, priceList);
  const title = page?.title ?? 'La boîte Soovenirs';
  const description = page?.description ?? entry.summary;
  return data(
    {
      origin,
      title,
      description,
      intro: page?.intro ?? entry.summary,
      html: page ? fillPricePlaceholders(page.html, priceList) : '',
      priceLabel: price.label,
      structuredData: [
        serviceStructuredData(origin, { name: title, description, path: '/boite-soovenirs', cents: null, unit: null }),
        breadcrumbList(origin, CRUMBS),
      ],
    },
    { headers: pageCacheHeaders(request) },
  );
}

const CONTENTS = [
  {
    icon: BoxIcon,
    title: 'Une boîte solide',
    text: 'Carton rigide recyclé fabriqué en France, calage pour les cassettes et les bobines, fermeture aimantée.',
  },
  {
    icon: PackageCheckIcon,
    title: 'Le voyage compris',
    text: 'Une étiquette suivie pour l’aller, et le retour de vos originaux dans la même boîte.',
  },
  {
    icon: UsbIcon,
    title: 'Vos souvenirs numérisés',
    text: 'Une clé USB rangée dans son logement, et un lien de téléchargement à partager avec la famille.',
  },
  {
    icon: HeartHandshakeIcon,
    title: 'Un cadeau qui a du sens',
    text: 'Offrez la boîte : la personne la remplit à son rythme, nous nous occupons du reste.',
  },
] as const;

export default function BoiteSoovenirs({ loaderData }: Route.ComponentProps) {
  const { title, intro, html, priceLabel, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Coffret souvenir"
        title={title}
        intro={<p>{intro}</p>}
        actions={
          <>
            <Button asChild variant="accent" size="lg">
              <Link to="/contact?sujet=boite-soovenirs">
                Demander ma boîte
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
            <Button asChild variant="outline" size="lg">
              <Link to="/services/soovenirs">Le service Soovenirs sur mesure</Link>
            </Button>
          </>
        }
        aside={
          <img
            src="/images/site/boite-soovenirs.svg"
            alt="La boîte Soovenirs ouverte, avec des photos, une cassette et une clé USB"
            width={560}
            height={420}
            loading="lazy"
            className="h-auto w-full rounded-2xl"
          />
        }
      />
      <section aria-labelledby="contenu-boite" className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <h2 id="contenu-boite" className="mb-8 text-title">
          Ce que contient la boîte
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {CONTENTS.map((item) => (
            <li key={item.title} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm">
              <item.icon className="size-7 text-sepia" aria-hidden="true" />
              <h3 className="font-heading font-semibold text-lg">{item.title}</h3>
              <p className="text-muted-foreground text-sm">{fr(item.text)}</p>
            </li>
          ))}
        </ul>
        <p className="mt-8 inline-flex rounded-full bg-secondary px-4 py-2 font-semibold text-primary">
          Tarif{'\u202F'}: {priceLabel.toLowerCase()}
        </p>
      </section>
      {html ? (
        <div className="bg-card">
          <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
            <Prose html={html} />
          </div>
        </div>
      ) : null}
      <CallToAction
        title={fr('Une boîte pour vos souvenirs ?')}
        text={fr('Dites-nous ce que vous voulez y mettre : nous vous envoyons un devis sur mesure sous un jour ouvré.')}
        action={{ label: 'Demander ma boîte', to: '/contact?sujet=boite-soovenirs' }}
        secondary={{ label: 'Estimer une numérisation', to: '/configurateur' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
