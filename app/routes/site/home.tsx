import { ArrowRightIcon, GiftIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { AnimatedFigures, type Figure } from '~/components/site/animated-figures';
import { CallToAction } from '~/components/site/call-to-action';
import { FaqList } from '~/components/site/faq-list';
import { GiftCardOffer } from '~/components/site/gift-card-offer';
import { JsonLd } from '~/components/site/json-ld';
import { PostCard } from '~/components/site/post-card';
import { ProcessSteps } from '~/components/site/process-steps';
import { Section } from '~/components/site/section';
import { ServiceCard } from '~/components/site/service-card';
import { Testimonials } from '~/components/site/testimonials';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { localBusiness, type PricedService, seoMeta } from '~/domain/content/seo';
import { servicePrice } from '~/domain/content/service-prices';
import { TESTIMONIALS } from '~/domain/content/testimonials';
import { frenchProse as fr } from '~/domain/content/typography';
import { CARD_SERVICE_IDS, getServiceEntry, type ServiceId, STRUCTURED_DATA_SERVICE_IDS } from '~/domain/services';
import { serviceImage } from '~/domain/site-navigation';
import { loadPriceList, serviceCards, siteOrigin } from '~/server/content/site.server';
import { contentSource, loadFaq } from '~/server/content/source.server';
import type { Route } from './+types/home';

export const headers = publicPageHeaders;

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Soovenirs : numérisation de photos, diapositives, VHS et films',
    description: fr(
      'Photos, diapositives, négatifs, cassettes VHS et films Super 8 numérisés avec soin dans notre atelier en France. Express 48 h, prix en ligne, originaux rendus.',
    ),
    path: '/',
    origin: loaderData?.origin ?? '',
  });
}

const HOME_SERVICE_IDS: readonly ServiceId[] = [
  'photos',
  'slides',
  'negatives',
  'plaques-de-verre',
  'vhs',
  'minidv',
  'film',
  'restauration',
];

export async function loader({ request }: Route.LoaderArgs) {
  const origin = siteOrigin();
  const [priceList, posts, faq] = await Promise.all([
    loadPriceList(),
    contentSource().getPosts({ limit: 3 }),
    loadFaq(),
  ]);
  const cards = await serviceCards(HOME_SERVICE_IDS, priceList);
  const priced: PricedService[] = STRUCTURED_DATA_SERVICE_IDS.map((id) => {
    const entry = getServiceEntry(id);
    const price = servicePrice(entry, priceList);
    return {
      name: entry.title,
      description: entry.summary,
      path: `/services/${id}`,
      cents: price.cents,
      unit: price.unit,
    };
  });
  return data(
    {
      origin,
      cards,
      // « Offrir une carte cadeau »: the card's validity is the active list's (Tarifs).
      giftCardValidityMonths: priceList?.giftCards?.validityMonths ?? null,
      posts,
      faq: faq.filter((item) => item.featured).slice(0, 5),
      structuredData: localBusiness(origin, priced),
    },
    { headers: pageCacheHeaders(request) },
  );
}

const figures: readonly Figure[] = [
  { value: 100, suffix: '\u202F%', label: 'Made in France' },
  { value: 30000, label: 'souvenirs numérisés' },
  { value: 48, suffix: '\u00A0h', label: 'en express' },
];

const heroImages = [
  { id: 'photos', className: '-rotate-6' },
  { id: 'vhs', className: 'translate-y-8 rotate-3' },
  { id: 'film', className: '-translate-y-2 rotate-6' },
  { id: 'slides', className: 'translate-y-4 -rotate-3' },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { cards, posts, faq, structuredData, giftCardValidityMonths } = loaderData;
  return (
    <>
      {/* The hero runs under the transparent header, which turns opaque once the page scrolls. */}
      <section
        aria-labelledby="accueil-titre"
        className="-mt-header bg-gradient-to-b from-secondary to-background pt-header"
      >
        <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 pt-12 pb-4 sm:px-6 md:pt-20 md:pb-8 lg:grid-cols-[1.2fr_1fr] lg:px-8">
          <div className="flex flex-col items-start gap-6">
            <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Numérisation de souvenirs</p>
            <h1 id="accueil-titre" className="text-display">
              Donnez une seconde vie à vos souvenirs
            </h1>
            <p className="max-w-xl text-lg text-muted-foreground">
              {fr(
                'Photos, diapositives, négatifs, cassettes VHS et films Super 8 : nous numérisons vos souvenirs avec soin dans notre atelier français, et vous les rendons prêts à partager.',
              )}
            </p>
            <div className="flex flex-wrap gap-3">
              <Button asChild variant="accent" size="lg">
                <Link to="/configurateur">
                  Estimer ma commande
                  <ArrowRightIcon aria-hidden="true" />
                </Link>
              </Button>
              <Button asChild variant="outline" size="lg">
                <Link to="/services">Découvrir nos prestations</Link>
              </Button>
            </div>
            <AnimatedFigures
              figures={figures}
              className="mt-4 grid w-full max-w-xl grid-cols-3 gap-4 border-border border-t pt-6"
            />
          </div>
          <div aria-hidden="true" className="mx-auto hidden w-full max-w-xs grid-cols-2 gap-6 lg:grid">
            {heroImages.map((image) => (
              <img
                key={image.id}
                src={serviceImage(image.id)}
                alt=""
                width={192}
                height={192}
                // Shown from 1024 px only: lazy, so that phones do not fetch them at all.
                loading="lazy"
                className={`w-full rounded-[17%] shadow-lg ${image.className}`}
              />
            ))}
          </div>
        </div>
      </section>

      <Section
        belowTheFold
        id="prestations"
        kicker="Nos prestations"
        title="Tous vos supports, un seul atelier"
        intro={fr(
          'Du tirage des années 1950 à la cassette MiniDV : chaque support a sa machine, son réglage et son opérateur. Les prix ci-dessous sont nos tarifs actuels, TTC.',
        )}
      >
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {cards.map((card) => (
            <li key={card.id}>
              <ServiceCard service={card} />
            </li>
          ))}
        </ul>
        <div className="mt-8">
          <Button asChild variant="outline" size="lg">
            <Link to="/services">
              Voir les {CARD_SERVICE_IDS.length} prestations et leurs tarifs
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        </div>
      </Section>

      <Section
        belowTheFold
        id="fonctionnement"
        tone="muted"
        kicker="Comment ça marche"
        title="Quatre étapes, sans vous déplacer"
        intro={fr('Vous estimez, vous envoyez, nous numérisons, vous recevez. Vos originaux vous sont rendus.')}
      >
        <ProcessSteps />
        <p className="mt-8">
          <Link
            to="/numerisation-fonctionnement"
            className="font-medium text-primary underline underline-offset-4 hover:text-sepia"
          >
            Le détail de chaque étape de la numérisation
          </Link>
        </p>
      </Section>

      <section aria-labelledby="boite-titre" className="scroll-mt-header">
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-16 sm:px-6 md:grid-cols-2 md:py-20 lg:px-8">
          <img
            src="/images/site/boite-soovenirs.svg"
            alt="La boîte Soovenirs ouverte, avec des photos, une cassette et une clé USB"
            width={560}
            height={420}
            loading="lazy"
            decoding="async"
            className="h-auto w-full rounded-2xl"
          />
          <div className="flex flex-col items-start gap-5">
            <p className="font-semibold text-sepia text-sm uppercase tracking-wider">La boîte Soovenirs</p>
            <h2 id="boite-titre" className="text-title">
              Un coffret pour rassembler, envoyer et garder
            </h2>
            <p className="text-lg text-muted-foreground">
              {fr(
                'Une boîte rigide en carton recyclé, fabriquée en France : vous y rangez vos albums, cassettes et bobines, elle voyage jusqu’à notre atelier, puis revient chez vous avec vos originaux et la clé USB de vos souvenirs numérisés.',
              )}
            </p>
            <ul className="grid gap-2 text-muted-foreground">
              {[
                'Calage intérieur pour les cassettes et les bobines',
                'Étiquette de transport suivie',
                'Un bel objet à offrir ou à transmettre',
              ].map((point) => (
                <li key={point} className="flex items-center gap-2">
                  <span className="size-2 rounded-full bg-accent" aria-hidden="true" />
                  {point}
                </li>
              ))}
            </ul>
            <Button asChild size="lg">
              <Link to="/boite-soovenirs">Découvrir la boîte Soovenirs</Link>
            </Button>
          </div>
        </div>
      </section>

      <GiftCardOffer id="carte-cadeau-titre" validityMonths={giftCardValidityMonths} className="bg-secondary" />

      <section aria-labelledby="essai-titre" className="bg-accent">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-12 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
          <div className="flex items-start gap-4">
            <GiftIcon className="mt-1 size-10 shrink-0 text-ink" aria-hidden="true" />
            <div className="flex flex-col gap-2">
              <h2 id="essai-titre" className="text-3xl text-ink">
                {fr('Essai gratuit : jugez sur pièces')}
              </h2>
              <p className="max-w-2xl text-ink">
                {fr(
                  'Confiez-nous 10 photos, diapositives ou négatifs : nous les numérisons gratuitement pour que vous voyiez la qualité avant de tout nous confier.',
                )}
              </p>
            </div>
          </div>
          <Button asChild size="lg">
            <Link to="/numérisation-essai-gratuit">Demander mon essai gratuit</Link>
          </Button>
        </div>
      </section>

      {posts.length > 0 ? (
        <Section
          belowTheFold
          id="blog"
          kicker="Le blog"
          title="Conseils pour vos souvenirs"
          intro={fr('Résolution, conservation, formats : ce que nous apprenons à l’atelier, expliqué simplement.')}
        >
          <ul className="grid gap-6 md:grid-cols-3">
            {posts.map((post) => (
              <li key={post.id}>
                <PostCard post={post} />
              </li>
            ))}
          </ul>
          <p className="mt-8">
            <Link
              to="/blog"
              className="inline-block py-1 font-medium text-primary underline underline-offset-4 hover:text-sepia"
            >
              Tous les articles du blog
            </Link>
          </p>
        </Section>
      ) : null}

      <Section
        belowTheFold
        id="temoignages"
        tone="muted"
        kicker="Ils nous ont confié leurs souvenirs"
        title="Ce qu’en disent nos clients"
      >
        <Testimonials items={TESTIMONIALS} />
      </Section>

      {faq.length > 0 ? (
        <Section belowTheFold id="questions" kicker="Questions fréquentes" title="Vous vous demandez peut-être…">
          <div className="max-w-3xl">
            <FaqList items={faq} />
            <p className="mt-6">
              <Link to="/faq" className="font-medium text-primary underline underline-offset-4 hover:text-sepia">
                Toutes les questions fréquentes
              </Link>
            </p>
          </div>
        </Section>
      ) : null}

      <CallToAction
        title={fr('Prêt à retrouver vos souvenirs ?')}
        text={fr(
          'Le configurateur calcule le prix exact de votre commande en deux minutes, options comprises. Sans engagement.',
        )}
        secondary={{ label: 'Nous contacter', to: '/contact' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
