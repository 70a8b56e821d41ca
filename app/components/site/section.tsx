import type { ReactNode } from 'react';
import { cn } from '../ui/cn';

interface SectionProps {
  id?: string;
  kicker?: string;
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  className?: string;
  /** Tinted background, to separate consecutive sections. */
  tone?: 'plain' | 'muted' | 'card';
  align?: 'start' | 'center';
  /**
   * Below the first screen of a long page: rendered by the browser only when near the screen
   * (content-visibility: auto, its last size remembered), so that the first paint lays out one
   * screen, not the whole page (the home page: docs/lighthouse.md).
   */
  belowTheFold?: boolean;
}

/** A block of a page with its h2 heading. */
export function Section({
  id,
  kicker,
  title,
  intro,
  children,
  className,
  tone = 'plain',
  align = 'start',
  belowTheFold = false,
}: SectionProps) {
  const headingId = id ? `${id}-titre` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={cn(
        tone === 'muted' && 'bg-muted',
        tone === 'card' && 'bg-card',
        'scroll-mt-header',
        belowTheFold && '[contain-intrinsic-size:auto_40rem] [content-visibility:auto]',
        className,
      )}
    >
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 md:py-20 lg:px-8">
        <div
          className={cn(
            'mb-10 flex max-w-3xl flex-col gap-3',
            align === 'center' && 'mx-auto items-center text-center',
          )}
        >
          {kicker ? <p className="font-semibold text-sepia text-sm uppercase tracking-wider">{kicker}</p> : null}
          <h2 id={headingId} className="text-title">
            {title}
          </h2>
          {intro ? <div className="text-lg text-muted-foreground">{intro}</div> : null}
        </div>
        {children}
      </div>
    </section>
  );
}
