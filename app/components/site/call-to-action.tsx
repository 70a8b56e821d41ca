import { ArrowRightIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '../ui/button';

interface CallToActionProps {
  title: string;
  text: ReactNode;
  /** Defaults to the main call to action of the site: Estimer ma commande -> /configurateur. */
  action?: { label: string; to: string };
  secondary?: { label: string; to: string };
}

/** The dark closing band of a page, with the main call to action. */
export function CallToAction({
  title,
  text,
  action = { label: 'Estimer ma commande', to: '/configurateur' },
  secondary,
}: CallToActionProps) {
  return (
    <section aria-labelledby="appel-action-titre" className="bg-primary text-primary-foreground">
      <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-14 sm:px-6 md:flex-row md:items-center md:justify-between lg:px-8">
        <div className="flex max-w-2xl flex-col gap-3">
          <h2 id="appel-action-titre" className="text-3xl text-white">
            {title}
          </h2>
          <div className="text-lg text-white/90">{text}</div>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button asChild variant="accent" size="lg">
            <Link to={action.to}>
              {action.label}
              <ArrowRightIcon aria-hidden="true" />
            </Link>
          </Button>
          {secondary ? (
            <Button
              asChild
              size="lg"
              variant="outline"
              className="border-white/70 bg-transparent text-white hover:bg-white/10"
            >
              <Link to={secondary.to}>{secondary.label}</Link>
            </Button>
          ) : null}
        </div>
      </div>
    </section>
  );
}
