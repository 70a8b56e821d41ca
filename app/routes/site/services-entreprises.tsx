import {
  ArrowRightIcon,
  BuildingIcon,
  CameraIcon,
  ClapperboardIcon,
  FileLock2Icon,
  LandmarkIcon,
  type LucideIcon,
  ScaleIcon,
  UsersIcon,
} from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { Section } from '~/components/site/section';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta } from '~/domain/content/seo';
import { fillPricePlaceholders } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadSitePage } from '~/server/content/source.server';
import type { Route } from './+types/services-entreprises';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Offre entreprises', path: '/services-entreprises' },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Numérisation pour les professionnels et les collectivités',
    description: fr(
      'Archives, fonds photographiques, films et cassettes d’entreprise : numérisation en volume, indexation, confidentialité et devis sur mesure, dans notre atelier en France.',
    ),
    path: '/services-entreprises',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const [page, priceList] = await Promise.all([loadSitePage('services-entreprises'), loadPriceList()]);
  const origin = siteOrigin();
  return data(
    {
      origin,
      intro: page?.intro ?? '',
      html: page ? fillPricePlaceholders(page.html, priceList) : '',
      structuredData: breadcrumbList(origin, CRUMBS),
    },
    { headers: pageCacheHeaders(request) },
  );
}

const SECTORS: readonly { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: LandmarkIcon,
    title: 'Collectivités et archives',
    text: 'Registres, plans, fonds photographiques municipaux et bulletins anciens, numérisés pour la consultation en ligne.',
  },
  {
    icon: ScaleIcon,
    title: 'Notaires et avocats',
    text: 'Actes et dossiers numérisés sous engagement de confidentialité, en PDF/A recherchable.',
  },
  {
    icon: BuildingIcon,
    title: 'Entreprises',
    text: 'Films institutionnels, photos d’usine, archives de marque : votre histoire prête pour un anniversaire ou un musée.',
  },
  {
    icon: UsersIcon,
    title: 'Associations et musées',
    text: 'Collections de plaques de verre, cartes postales, journaux de l’association, avec des tarifs adaptés.',
  },
  {
    icon: CameraIcon,
    title: 'Photographes et agences',
    text: 'Fonds de négatifs et d’ektachromes en TIFF haute définition, prêts pour la retouche et la vente.',
  },
  {
    icon: ClapperboardIcon,
    title: 'Production audiovisuelle',
    text: 'Rushes sur cassettes et films 16 mm numérisés pour un documentaire, avec un débit et un format adaptés au montage.',
  },
];

const COMMITMENTS = [
  'Devis détaillé sous deux jours ouvrés, tarif dégressif selon le volume',
  'Enlèvement et retour de vos fonds par transporteur, assurance comprise',
  'Engagement de confidentialité signé, accès restreint à l’atelier',
  'Nommage, classement et métadonnées selon votre plan de classement',
  'Formats d’archive : TIFF, PDF/A avec reconnaissance de texte, MP4 ou ProRes',
  'Livraison sur disque, sur serveur sécurisé ou dans votre GED',
];

export default function ServicesEntreprises({ loaderData }: Route.ComponentProps) {
  const { intro, html, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Offre professionnelle"
        title="Numérisation pour les professionnels"
        intro={
          <p>
            {intro ||
              fr(
                'Archives, collections, fonds d’entreprise : nous numérisons en volume, avec la même attention que pour un album de famille.',
              )}
          </p>
        }
        actions={
          <Button asChild variant="accent" size="lg">
            <Link to="/contact?pro=true">
              Demander un devis professionnel
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        }
      />
      <Section id="secteurs" kicker="Pour qui" title="Ils nous confient leurs fonds">
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {SECTORS.map((sector) => (
            <li
              key={sector.title}
              className="flex flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm"
            >
              <sector.icon className="size-7 text-sepia" aria-hidden="true" />
              <h3 className="font-heading font-semibold text-lg">{sector.title}</h3>
              <p className="text-muted-foreground text-sm">{fr(sector.text)}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="engagements" tone="muted" kicker="Nos engagements" title="Un prestataire qui s’adapte à vos règles">
        <ul className="grid gap-4 md:grid-cols-2">
          {COMMITMENTS.map((commitment) => (
            <li key={commitment} className="flex gap-3 rounded-lg bg-card p-4">
              <FileLock2Icon className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
              <span>{fr(commitment)}</span>
            </li>
          ))}
        </ul>
      </Section>
      {html ? (
        <div className="bg-card">
          <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
            <Prose html={html} />
          </div>
        </div>
      ) : null}
      <CallToAction
        title="Parlons de votre projet"
        text={fr('Décrivez votre fonds, son volume et vos délais : nous revenons vers vous avec un devis détaillé.')}
        action={{ label: 'Demander un devis professionnel', to: '/contact?pro=true' }}
        secondary={{ label: 'Voir les tarifs à l’unité', to: '/services' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
