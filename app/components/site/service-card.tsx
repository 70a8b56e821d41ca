import { ArrowRightIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Badge } from '../ui/badge';
import { cn } from '../ui/cn';

export interface ServiceCardData {
  id: string;
  title: string;
  summary: string;
  popular: boolean;
  image: string;
  priceLabel: string;
}

/** A service of the catalogue: picture, name, one line, price from the live price list; the whole card is a link. */
export function ServiceCard({ service, headingLevel = 3 }: { service: ServiceCardData; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article
      className={cn(
        'group relative flex h-full flex-col gap-4 rounded-xl border bg-card p-5 shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md',
        service.popular ? 'border-accent' : 'border-border',
      )}
    >
      <div className="flex items-start justify-between gap-3">
        <img src={service.image} alt="" width={64} height={64} loading="lazy" decoding="async" className="size-16" />
        {service.popular ? <Badge variant="warning">Populaire</Badge> : null}
      </div>
      <Heading className="font-heading font-semibold text-lg leading-tight">
        <Link
          to={`/services/${service.id}`}
          className="rounded-sm after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:outline-none group-focus-within:underline"
        >
          {service.title}
        </Link>
      </Heading>
      <p className="flex-1 text-muted-foreground text-sm">{service.summary}</p>
      <p className="flex items-center justify-between gap-2 border-border border-t pt-3 font-semibold text-primary text-sm">
        <span>{service.priceLabel}</span>
        <ArrowRightIcon className="size-4 shrink-0 transition-transform group-hover:translate-x-1" aria-hidden="true" />
      </p>
    </article>
  );
}
