import { QuoteIcon, StarIcon } from 'lucide-react';

export interface Testimonial {
  quote: string;
  name: string;
  place: string;
  service: string;
}

/** Customers' words, with the service they ordered. */
export function Testimonials({ items }: { items: readonly Testimonial[] }) {
  return (
    <ul className="grid gap-6 md:grid-cols-3">
      {items.map((item) => (
        <li key={item.name}>
          <figure className="flex h-full flex-col gap-4 rounded-xl border border-border bg-card p-6 shadow-sm">
            <div className="flex items-center justify-between">
              <QuoteIcon className="size-8 text-accent" aria-hidden="true" />
              <p className="flex gap-0.5 text-accent" role="img" aria-label="5 étoiles sur 5">
                {[1, 2, 3, 4, 5].map((n) => (
                  <StarIcon key={n} className="size-4 fill-current" aria-hidden="true" />
                ))}
              </p>
            </div>
            <blockquote className="flex-1 text-foreground">
              <p>{item.quote}</p>
            </blockquote>
            <figcaption className="border-border border-t pt-4 text-sm">
              <span className="font-semibold">{item.name}</span>
              <span className="text-muted-foreground">
                {' '}
                · {item.place} · {item.service}
              </span>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
