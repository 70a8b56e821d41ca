import { ChevronRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import type { Crumb } from '~/domain/content/seo';

/** "Accueil > Services > Photos papier": the last crumb is the current page. */
export function Breadcrumb({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Fil d’Ariane" className="text-muted-foreground text-sm">
      <ol className="flex flex-wrap items-center gap-1">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.path} className="flex items-center gap-1">
              {last ? (
                <span aria-current="page" className="font-medium text-foreground">
                  {crumb.name}
                </span>
              ) : (
                <>
                  <Link to={crumb.path} className="rounded-sm underline-offset-4 hover:text-foreground hover:underline">
                    {crumb.name}
                  </Link>
                  <ChevronRightIcon className="size-3.5" aria-hidden="true" />
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
