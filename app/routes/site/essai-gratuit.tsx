import { ArrowRightIcon, EyeIcon, MailIcon, PackageOpenIcon } from 'lucide-react';
import { data, Link } from 'react-router';
import { CallToAction } from '~/components/site/call-to-action';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { Prose } from '~/components/site/prose';
import { Button } from '~/components/ui/button';
import { pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { breadcrumbList, seoMeta } from '~/domain/content/seo';
import { fillPricePlaceholders } from '~/domain/content/service-prices';
import { frenchProse as fr } from '~/domain/content/typography';
import { loadPriceList, siteOrigin } from '~/server/content/site.server';
import { loadSitePage } from '~/server/content/source.server';
import type { Route } from './+types/essai-gratuit';

export const headers = publicPageHeaders;

/** The URL, with its accent; /numerisation-essai-gratuit serves the same page. */
const PATH = '/numérisation-essai-gratuit';
const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Essai gratuit', path: PATH },
];

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: loaderData?.title ?? 'Essai gratuit de numérisation',
    description:
      loaderData?.description ??
      fr('Faites numériser gratuitement 10 photos, diapositives ou négatifs pour juger la qualité avant de commander.'),
    path: PATH,
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const [page, priceList] = await Promise.all([loadSitePage('numerisation-essai-gratuit'), loadPriceList()]);
  const origin = siteOrigin();
  return data(
    {
      origin,
      title: page?.title ?? 'Essai gratuit de numérisation',
      description: page?.description ?? null,
      intro: page?.intro ?? '',
      html: page ? fillPricePlaceholders(page.html, priceList) : '',
      structuredData: breadcrumbList(origin, CRUMBS),
    },
    { headers: pageCacheHeaders(request) },
  );
}

const STEPS = [
  {
    icon: MailIcon,
    title: 'Demandez votre essai',
    text: 'Remplissez le formulaire de contact avec le sujet « Demande d’essai gratuit » : nous vous confirmons l’essai et vous envoyons un bon de dépôt.',
  },
  {
    icon: PackageOpenIcon,
    title: 'Envoyez 10 images',
    text: 'Choisissez jusqu’à 10 photos, diapositives ou négatifs, de préférence les plus difficiles : une photo sombre, une diapo virée, un négatif rayé.',
  },
  {
    icon: EyeIcon,
    title: 'Jugez sur vos fichiers',
    text: 'Sous une semaine, vous recevez vos fichiers par lien de téléchargement et vos originaux par courrier. Vous décidez ensuite, sans engagement.',
  },
] as const;

export default function EssaiGratuit({ loaderData }: Route.ComponentProps) {
  const { title, intro, html, structuredData } = loaderData;
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker="Sans engagement"
        title={title}
        intro={intro ? <p>{intro}</p> : undefined}
        actions={
          <Button asChild variant="accent" size="lg">
            <Link to="/contact?sujet=essai-gratuit">
              Demander mon essai gratuit
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
        }
        aside={
          <img
            src="/images/site/essai-gratuit.svg"
            alt="Dix photos et diapositives prêtes à être numérisées, avec l’écran qui les affiche"
            width={560}
            height={420}
            loading="lazy"
            className="h-auto w-full rounded-2xl"
          />
        }
      />
      <section aria-labelledby="etapes-essai" className="mx-auto w-full max-w-7xl px-4 pb-16 sm:px-6 lg:px-8">
        <h2 id="etapes-essai" className="mb-8 text-title">
          Comment se passe l’essai
        </h2>
        <ol className="grid gap-6 md:grid-cols-3">
          {STEPS.map((step, index) => (
            <li key={step.title} className="flex flex-col gap-3 rounded-xl border border-border bg-card p-6 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="flex size-10 items-center justify-center rounded-full bg-primary font-heading font-semibold text-lg text-primary-foreground">
                  {index + 1}
                </span>
                <step.icon className="size-6 text-sepia" aria-hidden="true" />
              </div>
              <h3 className="font-heading font-semibold text-xl">{step.title}</h3>
              <p className="text-muted-foreground text-sm">{fr(step.text)}</p>
            </li>
          ))}
        </ol>
      </section>
      {html ? (
        <div className="bg-card">
          <div className="mx-auto w-full max-w-3xl px-4 py-16 sm:px-6">
            <Prose html={html} />
          </div>
        </div>
      ) : null}
      <CallToAction
        title={fr('Convaincu ? Passez à la suite')}
        text={fr('Estimez la numérisation de tous vos souvenirs : le prix exact, tout de suite.')}
        secondary={{ label: 'Demander mon essai gratuit', to: '/contact?sujet=essai-gratuit' }}
      />
      <JsonLd data={structuredData} />
    </>
  );
}
