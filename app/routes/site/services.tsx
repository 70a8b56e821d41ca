import {
  ArchiveIcon,
  ArrowRightIcon,
  BadgeEuroIcon,
  BriefcaseBusinessIcon,
  FilmIcon,
  HandIcon,
  ImagesIcon,
  type LucideIcon,
  RotateCcwIcon,
  ShieldCheckIcon,
  SparklesIcon,
  TimerIcon,
  UndoIcon,
} from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { GiftCardOffer } from '~/components/site/gift-card-offer';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Section } from '~/components/site/section';
import { ServiceCard } from '~/components/site/service-card';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, type PricedService, seoMeta, servicesStructuredData } from '~/domain/content/seo';
import { servicePrice } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import {
  CARD_SERVICE_IDS,
  getServiceEntry,
  SERVICE_CATALOGUE,
  SERVICE_CATEGORIES,
  STRUCTURED_DATA_SERVICE_IDS,
} from '~/domain/services';
import { loadPriceList, serviceCards, siteOrigin } from '~/server/content/site.server';
import type { Route } from './+types/services';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Services', path: '/services' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Nos prestations de numérisation et leurs tarifs',
    description: fr(
      'Photos, diapositives, ektachromes, négatifs, plaques de verre, VHS, VHS-C, MiniDV, films Super 8 et 16 mm, documents, journaux et restauration : tarifs TTC et options.',
    ),
    path: '/services',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const origin = siteOrigin();
  const priceList = await loadPriceList();
  const cards = await serviceCards(CARD_SERVICE_IDS, priceList);
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
      structuredData: [servicesStructuredData(origin, priced), breadcrumbList(origin, CRUMBS)],
    },
    { headers: pageCacheHeaders(request) },
  );
}

const REASONS: readonly { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: ShieldCheckIcon,
    title: '100 % Made in France',
    text: 'Vos souvenirs ne quittent jamais la France : ils sont numérisés dans notre atelier, par notre équipe, jamais sous-traités à l’étranger.',
  },
  {
    icon: HandIcon,
    title: 'Chaque pièce passe entre des mains',
    text: 'Dépoussiérage, réglage de la mise au point, correction des couleurs : un opérateur traite chaque photo, cassette ou bobine.',
  },
  {
    icon: BadgeEuroIcon,
    title: 'Des prix affichés, sans surprise',
    text: 'Le configurateur calcule le prix exact avant votre commande. Pas de frais cachés, pas de minimum de commande.',
  },
  {
    icon: TimerIcon,
    title: 'Express en 48 h',
    text: 'Besoin de vos fichiers pour un anniversaire ou une cérémonie ? Choisissez le traitement express dans le configurateur : votre commande est traitée en 48 h ouvrées après la réception de vos originaux.',
  },
  {
    icon: UndoIcon,
    title: 'Originaux rendus',
    text: 'Vos albums, cassettes et bobines vous reviennent en colis suivi, dans l’emballage où vous nous les avez confiés.',
  },
  {
    icon: ArchiveIcon,
    title: 'Des fichiers faits pour durer',
    text: 'JPEG ou TIFF pour les images, MP4 pour la vidéo, noms de fichiers clairs et dossiers classés comme vos albums.',
  },
];

const FURTHER_SERVICES: readonly {
  icon: LucideIcon;
  title: string;
  text: string;
  link: { label: string; to: string };
}[] = [
  {
    icon: BriefcaseBusinessIcon,
    title: 'Professionnels et collectivités',
    text: 'Archives municipales, études notariales, associations, entreprises : devis au volume, indexation et confidentialité.',
    link: { label: 'Demander un devis professionnel', to: '/contact?pro=true' },
  },
  {
    icon: SparklesIcon,
    title: 'Restauration',
    text: 'Rayures, déchirures, taches d’humidité, couleurs virées au rouge : nos retoucheurs réparent vos photos abîmées.',
    link: { label: 'Ajouter la restauration à ma commande', to: '/configurateur' },
  },
  {
    icon: FilmIcon,
    title: 'Montages et albums',
    text: 'Un film de famille monté avec titres et musique, ou un livre photo imprimé à partir de vos images numérisées.',
    link: { label: 'Parler de mon projet de montage', to: '/contact?sujet=montage' },
  },
  {
    icon: RotateCcwIcon,
    title: 'Archivage sécurisé',
    text: 'Une copie de vos fichiers conservée dans nos archives, pour ne plus jamais craindre la perte d’un disque dur.',
    link: { label: 'Se renseigner sur l’archivage', to: '/contact?sujet=archivage' },
  },
];

export default function Services({ loaderData }: Route.ComponentProps) {
  const { cards, structuredData, giftCardValidityMonths } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Nos prestations"
        title="Numérisation de tous vos souvenirs"
        intro={fr(
          'Photos, films, cassettes, documents : choisissez votre support pour découvrir notre méthode et nos tarifs. Tous les prix sont TTC, calculés à l’unité, sans minimum de commande.',
        )}
        actions={
          <Button asChild variant="accent" size="lg">
            <Link to="/configurateur">
              Démarrer mon devis personnalisé
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        }
      />

      <section aria-labelledby="catalogue-titre" className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <h2 id="catalogue-titre" className="mb-8 text-title">
          {/* Counted, not written: the home page's link names the same number (decision 015). */}
          Nos {cards.length} prestations
        </h2>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {cards.map((card) => (
            <li key={card.id}>
              <ServiceCard service={card} />
            </li>
          ))}
        </ul>
        <div className="mt-10 flex flex-col items-start gap-3 rounded-xl border border-border bg-card p-6 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-lg">
            {fr('Plusieurs supports dans la même commande ? Le configurateur additionne tout pour vous.')}
          </p>
          <Button asChild variant="accent" size="lg">
            <Link to="/configurateur">Démarrer mon devis personnalisé</Link>
          </Button>
        </div>
      </section>

      <Section id="categories" tone="muted" kicker="Par catégorie" title="Trouver votre support">
        <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-5">
          {SERVICE_CATEGORIES.map((category) => (
            <div key={category.id} className="flex flex-col gap-3">
              <h3 className="flex items-center gap-2 font-heading font-semibold text-lg">
                <ImagesIcon className="size-5 text-sepia" aria-hidden="true" />
                {category.title}
              </h3>
              <p className="text-muted-foreground text-sm">{fr(category.description)}</p>
              <ul className="grid gap-1.5 text-sm">
                {SERVICE_CATALOGUE.filter((service) => service.category === category.id).map((service) => (
                  <li key={service.id}>
                    <Link
                      to={`/services/${service.id}`}
                      className="font-medium text-primary underline-offset-4 hover:underline"
                    >
                      {service.title}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      </Section>

      <Section
        id="pourquoi"
        kicker="Pourquoi Soovenirs"
        title="Pourquoi nous confier vos souvenirs"
        intro={fr('Plus de 30 000 souvenirs numérisés, et la même exigence pour chacun.')}
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {REASONS.map((reason) => (
            <li key={reason.title} className="flex gap-4">
              <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-secondary">
                <reason.icon className="size-6 text-primary" aria-hidden="true" />
              </span>
              <div className="flex flex-col gap-1">
                <h3 className="font-heading font-semibold text-lg">{fr(reason.title)}</h3>
                <p className="text-muted-foreground text-sm">{fr(reason.text)}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="methode-titre" className="bg-card">
        <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6 lg:px-8">
          <h2 id="methode-titre" className="mb-5 text-title">
            Une méthode éprouvée, un essai offert
          </h2>
          <div className="flex flex-col gap-4 text-lg text-muted-foreground">
            <p>
              {fr(
                'Un tirage papier ne se numérise pas comme une diapositive, ni une cassette VHS comme une bobine Super 8. Pour chaque support, nous utilisons l’appareil qui lui convient : scanner à plat, scanner de films, magnétoscope professionnel avec correcteur de base de temps, ou scanner de films image par image. ',
              )}
              <Link
                to="/numerisation-fonctionnement"
                className="font-medium text-primary underline underline-offset-4 hover:text-sepia"
              >
                Découvrez comment se déroule la numérisation
              </Link>
              , de la réception de votre colis au retour de vos originaux.
            </p>
            <p>
              {fr('Vous hésitez encore ? Envoyez-nous quelques images : ')}
              <Link
                to="/numérisation-essai-gratuit"
                className="font-medium text-primary underline underline-offset-4 hover:text-sepia"
              >
                notre essai gratuit
              </Link>{' '}
              {fr('vous permet de juger la qualité sur vos propres souvenirs, avant de passer commande.')}
            </p>
          </div>
        </div>
      </section>

      <Section id="autres-services" tone="muted" kicker="Et aussi" title="Quatre services pour aller plus loin">
        <ul className="grid gap-6 md:grid-cols-2">
          {FURTHER_SERVICES.map((service) => (
            <li
              key={service.title}
              className="flex flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm"
            >
              <service.icon className="size-7 text-sepia" aria-hidden="true" />
              <h3 className="font-heading font-semibold text-xl">{service.title}</h3>
              <p className="flex-1 text-muted-foreground">{fr(service.text)}</p>
              <Link
                to={service.link.to}
                className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
              >
                {service.link.label}
                <ArrowRightIcon className="size-4" aria-hidden="true" />
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <GiftCardOffer id="carte-cadeau-titre" validityMonths={giftCardValidityMonths} />

      <CallToAction
        title="Votre devis en deux minutes"
        text={fr('Indiquez vos supports et vos options : le prix exact s’affiche aussitôt, sans engagement.')}
        action={{ label: 'Démarrer mon devis personnalisé', to: '/configurateur' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
