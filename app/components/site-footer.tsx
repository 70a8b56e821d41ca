import { ClockIcon, MailIcon, MapPinIcon, PhoneIcon } from 'lucide-react';
import { Link } from 'react-router';
import { businessHours, company } from '~/domain/company';
import { NBSP, NNBSP } from '~/domain/format';
import {
  adminEntry,
  allServicesEntry,
  footerServiceEntries,
  legalEntries,
  type MenuEntry,
  siteNavigation,
} from '~/domain/site-navigation';
import { LogoMark } from './site-header';

// French typography: U+202F (narrow no-break space) before « ; : ! ? % » and as thousands separator,
// U+00A0 (no-break space) before « € » and inside numbers that must not wrap.

const groups = Object.fromEntries(siteNavigation.map((group) => [group.id, group]));

const linkClass = 'rounded-sm text-ink-foreground underline-offset-4 hover:text-ink-link hover:underline';

function LinkList({ entries }: { entries: readonly MenuEntry[] }) {
  return (
    <ul className="grid gap-2 text-sm">
      {entries.map((entry) => (
        <li key={entry.path}>
          <Link to={entry.path} lang={entry.lang} className={linkClass}>
            {entry.title}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function ColumnTitle({ children }: { children: React.ReactNode }) {
  return <h2 className="mb-3 font-sans font-semibold text-ink-link text-sm uppercase tracking-wider">{children}</h2>;
}

export function SiteFooter() {
  const year = new Date().getFullYear();
  return (
    <footer className="bg-ink text-ink-foreground">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:grid-cols-2 sm:px-6 lg:grid-cols-[1.4fr_1fr_1fr_1fr_1.2fr] lg:px-8">
        <div className="flex flex-col gap-4">
          <Link to="/" aria-label="Soovenirs, accueil" className="flex w-fit items-center gap-2 rounded-md">
            <LogoMark className="size-8" />
            <span className="font-heading font-semibold text-2xl text-white leading-none">Soovenirs</span>
          </Link>
          <p className="max-w-xs text-ink-muted text-sm">
            Vos photos, diapositives, films et cassettes numérisés avec soin, dans notre atelier parisien.
          </p>
          <p className="w-fit rounded-full border border-ink-link/60 px-3 py-1 font-semibold text-ink-link text-sm">
            {`100${NNBSP}% Made in France`}
          </p>
          <address className="grid gap-2 text-sm not-italic">
            <a href={company.phoneHref} className={`${linkClass} flex items-center gap-2`}>
              <PhoneIcon className="size-4 text-ink-link" aria-hidden="true" />
              {company.phone}
            </a>
            <a href={`mailto:${company.email}`} className={`${linkClass} flex items-center gap-2`}>
              <MailIcon className="size-4 text-ink-link" aria-hidden="true" />
              {company.email}
            </a>
            <span className="flex items-start gap-2">
              <MapPinIcon className="mt-0.5 size-4 shrink-0 text-ink-link" aria-hidden="true" />
              <span>
                {company.street}
                <br />
                {`${company.postalCode}${NBSP}${company.city}`}
              </span>
            </span>
          </address>
        </div>

        <nav aria-labelledby="pied-prestations">
          <ColumnTitle>
            <span id="pied-prestations">Prestations</span>
          </ColumnTitle>
          <LinkList entries={[...footerServiceEntries, allServicesEntry]} />
        </nav>

        <nav aria-labelledby="pied-infos">
          <ColumnTitle>
            <span id="pied-infos">Infos</span>
          </ColumnTitle>
          <LinkList entries={groups.infos?.entries ?? []} />
        </nav>

        <nav aria-labelledby="pied-ressources">
          <ColumnTitle>
            <span id="pied-ressources">Ressources</span>
          </ColumnTitle>
          <LinkList entries={[...(groups.ressources?.entries ?? []), ...(groups.pro?.entries ?? [])]} />
        </nav>

        <section aria-labelledby="pied-horaires">
          <ColumnTitle>
            <span id="pied-horaires" className="inline-flex items-center gap-2">
              <ClockIcon className="size-4" aria-hidden="true" />
              Horaires
            </span>
          </ColumnTitle>
          <dl className="grid gap-2 text-sm">
            {businessHours.map((line) => (
              <div key={line.days} className="flex justify-between gap-4 border-white/10 border-b pb-2 last:border-0">
                <dt>{line.days}</dt>
                <dd className="text-right font-medium text-white">{line.hours}</dd>
              </div>
            ))}
          </dl>
        </section>
      </div>

      <div className="border-white/10 border-t">
        <div className="mx-auto flex max-w-7xl flex-col gap-4 px-4 py-6 text-ink-muted text-xs sm:px-6 lg:flex-row lg:items-center lg:justify-between lg:px-8">
          <p>
            {`© ${year} ${company.name} au capital de ${company.capital}`} · {`SIREN ${company.siren}`} · {company.rcs}{' '}
            · {`${company.street}, ${company.postalCode}${NBSP}${company.city}`}
          </p>
          <nav aria-label="Informations légales">
            <ul className="flex flex-wrap gap-x-4 gap-y-2">
              {legalEntries.map((entry) => (
                <li key={entry.path}>
                  <Link to={entry.path} lang={entry.lang} className={linkClass}>
                    {entry.title}
                  </Link>
                </li>
              ))}
              <li>
                <Link to={adminEntry.path} className={linkClass}>
                  {adminEntry.title}
                </Link>
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </footer>
  );
}
