import { ExternalLinkIcon, MapIcon } from 'lucide-react';
import { Link } from 'react-router';
import { company } from '~/domain/company';
import { WORKSHOP_GEO } from '~/domain/content/seo';
import { frenchProse } from '~/domain/content/typography';
import { Button } from '../ui/button';

const { latitude, longitude } = WORKSHOP_GEO;
const bbox = [longitude - 0.004, latitude - 0.002, longitude + 0.004, latitude + 0.002]
  .map((n) => n.toFixed(5))
  .join(',');

export const OSM_EMBED_URL = `https://www.openstreetmap.org/export/embed.html?bbox=${encodeURIComponent(bbox)}&layer=mapnik&marker=${latitude}%2C${longitude}`;
export const OSM_PAGE_URL = `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=17/${latitude}/${longitude}`;

/**
 * The workshop on a map. Nothing is loaded from another site until the visitor asks: first a
 * drawn plan (ours), then, on request (a link, so that it works without JavaScript too), the
 * OpenStreetMap frame, which the Content-Security-Policy allows.
 */
export function WorkshopMap({ interactive }: { interactive: boolean }) {
  return (
    <figure id="plan" className="flex scroll-mt-header flex-col gap-3">
      <div className="relative aspect-[4/3] w-full overflow-hidden rounded-xl border border-border bg-muted">
        {interactive ? (
          <iframe
            title={`Carte OpenStreetMap\u202F: ${company.street}, ${company.postalCode} ${company.city}`}
            src={OSM_EMBED_URL}
            className="absolute inset-0 size-full"
            loading="lazy"
            referrerPolicy="no-referrer"
          />
        ) : (
          <>
            <img
              src="/images/site/plan-atelier.svg"
              alt={`Plan simplifié du quartier de l’atelier, ${company.street}, près de l’Hôtel de Ville`}
              width={640}
              height={480}
              loading="lazy"
              decoding="async"
              className="absolute inset-0 size-full object-cover"
            />
            <div className="absolute inset-x-3 bottom-3 flex justify-center">
              <Button asChild variant="default" className="shadow-md">
                <Link to="?carte=1#plan" preventScrollReset replace rel="nofollow">
                  <MapIcon aria-hidden="true" />
                  Afficher la carte interactive
                </Link>
              </Button>
            </div>
          </>
        )}
      </div>
      <figcaption className="flex flex-wrap items-center justify-between gap-2 text-muted-foreground text-xs">
        <span>
          {interactive
            ? '© les contributeurs d’OpenStreetMap.'
            : frenchProse('La carte interactive vient d’OpenStreetMap : elle ne se charge que si vous la demandez.')}
        </span>
        <a
          href={OSM_PAGE_URL}
          rel="noopener noreferrer"
          className="inline-flex items-center gap-1 font-medium text-primary underline-offset-4 hover:underline"
        >
          Ouvrir l’itinéraire sur OpenStreetMap
          <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
        </a>
      </figcaption>
    </figure>
  );
}
