import { parseWithZod } from '@conform-to/zod/v4';
import { CalculatorIcon, ClockIcon, MailIcon, MapPinIcon, PackageIcon, PhoneIcon } from 'lucide-react';
import { data, Link, useSearchParams } from 'react-router';
import { type ContactActionData, ContactForm } from '~/components/site/contact-form';
import { JsonLd } from '~/components/site/json-ld';
import { PageHeader } from '~/components/site/page-header';
import { WorkshopMap } from '~/components/site/workshop-map';
import { Button } from '~/components/ui/button';
import { businessHours, company } from '~/domain/company';
import { NO_STORE, pageCacheHeaders, publicPageHeaders } from '~/domain/content/cache-control';
import { contactDefaults, HONEYPOT_FIELD } from '~/domain/content/contact-fields';
import { contactMessageSchema } from '~/domain/content/contact-form';
import { breadcrumbList, localBusiness, seoMeta } from '~/domain/content/seo';
import { frenchProse as fr } from '~/domain/content/typography';
import { NBSP } from '~/domain/format';
import { contactRateLimiter, submitContactMessage } from '~/server/contact/contact.server';
import { siteOrigin } from '~/server/content/site.server';
import { readFormData } from '~/server/form-data.server';
import { log } from '~/server/log.server';
import type { Route } from './+types/contact';

export const headers = publicPageHeaders;

const CRUMBS = [
  { name: 'Accueil', path: '/' },
  { name: 'Contact', path: '/contact' },
];

/** Set by server/app.ts from Express's view of the client (trust proxy), never from the client. */
const CLIENT_IP_HEADER = 'x-soovenirs-client-ip';

export function meta({ loaderData }: Route.MetaArgs) {
  return seoMeta({
    title: 'Contact : écrivez-nous ou appelez l’atelier',
    description: fr(
      'Une question sur la numérisation de vos souvenirs ? Écrivez-nous ou appelez-nous : atelier au 12 rue des Archives, Paris 4e, du lundi au samedi.',
    ),
    path: '/contact',
    origin: loaderData?.origin ?? '',
  });
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const origin = siteOrigin();
  return data(
    {
      origin,
      defaults: contactDefaults(url.searchParams),
      structuredData: [localBusiness(origin), breadcrumbList(origin, CRUMBS)],
    },
    { headers: pageCacheHeaders(request) },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const noStore = { 'Cache-Control': NO_STORE };
  const formData = await readFormData(request);
  const submission = parseWithZod(formData, { schema: contactMessageSchema });

  // A robot filled the hidden field: it is told "sent", and nothing is stored or e-mailed.
  if (String(formData.get(HONEYPOT_FIELD) ?? '').trim() !== '') {
    log.info('contact form: honeypot filled, message dropped');
    return data<ContactActionData>(
      { status: 'success', result: submission.reply({ resetForm: true }), email: '' },
      { headers: noStore },
    );
  }

  if (submission.status !== 'success') {
    return data<ContactActionData>(
      { status: 'invalid', result: submission.reply() },
      { status: 400, headers: noStore },
    );
  }

  const client = request.headers.get(CLIENT_IP_HEADER) || 'inconnu';
  if (!(await contactRateLimiter().hit(client)).allowed) {
    return data<ContactActionData>(
      { status: 'error', reason: 'rate-limit', reference: null, result: submission.reply() },
      { status: 429, headers: noStore },
    );
  }

  try {
    await submitContactMessage(submission.value);
  } catch (error) {
    const reference = crypto.randomUUID().slice(0, 8).toUpperCase();
    log.error({ err: error, reference }, 'contact form: the message could not be stored');
    return data<ContactActionData>(
      { status: 'error', reason: 'server', reference, result: submission.reply() },
      { status: 500, headers: noStore },
    );
  }
  return data<ContactActionData>(
    { status: 'success', result: submission.reply({ resetForm: true }), email: submission.value.email },
    { headers: noStore },
  );
}

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const { defaults, structuredData } = loaderData;
  const [searchParams] = useSearchParams();
  const showMap = searchParams.get('carte') === '1';
  return (
    <>
      <PageHeader
        crumbs={CRUMBS}
        kicker={defaults.pro ? 'Professionnels' : 'Contact'}
        title={defaults.pro ? 'Demande de devis professionnel' : 'Écrivez-nous'}
        intro={
          <p>
            {defaults.pro
              ? fr(
                  'Archives, fonds photographiques, collections de cassettes : décrivez-nous votre projet et son volume, nous vous proposons un devis détaillé sous deux jours ouvrés.',
                )
              : fr(
                  'Une question sur vos supports, un doute sur une option, une commande en cours ? Nous répondons à chaque message, en général sous un jour ouvré.',
                )}
          </p>
        }
      />
      {/* On a wide screen the map goes under the form (left) and the details run beside both: no
          empty column under the form. On a phone: form, details, then the map. */}
      <div className="mx-auto grid w-full max-w-7xl items-start gap-12 px-4 pb-16 sm:px-6 lg:grid-cols-[1.5fr_1fr] lg:grid-rows-[auto_1fr] lg:px-8">
        <section
          aria-labelledby="formulaire-titre"
          className="rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8"
        >
          <h2 id="formulaire-titre" className="mb-6 font-heading text-2xl">
            Votre message
          </h2>
          <ContactForm actionData={actionData as ContactActionData | undefined} defaults={defaults} />
        </section>

        <div className="flex flex-col gap-8 lg:row-span-2">
          <section aria-labelledby="coordonnees-titre" className="flex flex-col gap-4">
            <h2 id="coordonnees-titre" className="font-heading text-2xl">
              Nos coordonnées
            </h2>
            <ul className="grid gap-3">
              <li className="flex items-center gap-3">
                <PhoneIcon className="size-5 text-sepia" aria-hidden="true" />
                <a href={company.phoneHref} className="font-medium text-primary underline-offset-4 hover:underline">
                  {company.phone}
                </a>
              </li>
              <li className="flex items-center gap-3">
                <MailIcon className="size-5 text-sepia" aria-hidden="true" />
                <a
                  href={`mailto:${company.email}`}
                  className="font-medium text-primary underline-offset-4 hover:underline"
                >
                  {company.email}
                </a>
              </li>
              <li className="flex items-start gap-3">
                <MapPinIcon className="mt-0.5 size-5 text-sepia" aria-hidden="true" />
                <span>
                  Atelier Soovenirs, {company.street}
                  <br />
                  {`${company.postalCode}${NBSP}${company.city}`} (métro Hôtel de Ville), sur rendez-vous
                </span>
              </li>
            </ul>
          </section>

          <section aria-labelledby="envoi-titre" className="flex flex-col gap-3 rounded-xl bg-secondary p-5">
            <h2 id="envoi-titre" className="flex items-center gap-2 font-heading text-xl">
              <PackageIcon className="size-5 text-sepia" aria-hidden="true" />
              Adresse d’envoi de vos souvenirs
            </h2>
            <address className="not-italic">
              Soovenirs – Atelier de numérisation
              <br />
              {company.street}
              <br />
              {`${company.postalCode}${NBSP}${company.city}`}
              <br />
              France
            </address>
            <p className="text-muted-foreground text-sm">
              {fr(
                'Joignez votre bon de commande au colis et envoyez-le en suivi (Colissimo ou point relais). Vous pouvez aussi choisir notre étiquette prépayée dans le configurateur.',
              )}
            </p>
          </section>

          <section aria-labelledby="horaires-titre" className="flex flex-col gap-3">
            <h2 id="horaires-titre" className="flex items-center gap-2 font-heading text-xl">
              <ClockIcon className="size-5 text-sepia" aria-hidden="true" />
              Horaires d’ouverture
            </h2>
            <dl className="grid gap-1">
              {businessHours.map((line) => (
                <div key={line.days} className="flex justify-between gap-4 border-border border-b pb-1 last:border-0">
                  <dt>{line.days}</dt>
                  <dd className="font-medium">{line.hours}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section
            aria-labelledby="estimation-titre"
            className="flex flex-col items-start gap-3 rounded-xl border border-accent bg-card p-5"
          >
            <h2 id="estimation-titre" className="flex items-center gap-2 font-heading text-xl">
              <CalculatorIcon className="size-5 text-sepia" aria-hidden="true" />
              Connaître le prix tout de suite
            </h2>
            <p className="text-muted-foreground text-sm">
              {fr('Le configurateur calcule le prix exact de votre commande, options comprises.')}
            </p>
            <Button asChild variant="accent">
              <Link to="/configurateur">Estimer ma commande</Link>
            </Button>
          </section>
        </div>

        <section aria-labelledby="plan-titre" className="flex flex-col gap-3">
          <h2 id="plan-titre" className="font-heading text-xl">
            Venir à l’atelier
          </h2>
          <WorkshopMap interactive={showMap} />
        </section>
      </div>
      <JsonLd data={structuredData} />
    </>
  );
}
