import { GiftIcon } from 'lucide-react';
import type { ReactNode } from 'react';

/** The top of the gift card's pages: « Carte cadeau » above the page's title, then its introduction. */
export function GiftCardHeading({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <p className="inline-flex items-center gap-2 font-semibold text-sepia text-sm uppercase tracking-wider">
        <GiftIcon className="size-4" aria-hidden="true" />
        Carte cadeau
      </p>
      <h1 id={id} className="text-title">
        {title}
      </h1>
      <p className="text-muted-foreground">{children}</p>
    </div>
  );
}
