import type { ReactNode } from 'react';
import type { Crumb } from '~/domain/content/seo';
import { cn } from '../ui/cn';
import { Breadcrumb } from './breadcrumb';

interface PageHeaderProps {
  crumbs: readonly Crumb[];
  kicker?: string;
  title: string;
  intro?: ReactNode;
  /** Buttons under the introduction. */
  actions?: ReactNode;
  /** An illustration on the right on wide screens. */
  aside?: ReactNode;
  lang?: 'fr' | 'en';
  className?: string;
}

/** The top of an inner page: breadcrumb, title (the page's only h1) and introduction. */
export function PageHeader({ crumbs, kicker, title, intro, actions, aside, lang, className }: PageHeaderProps) {
  return (
    <div className={cn('-mt-header bg-gradient-to-b from-secondary to-background pt-header', className)}>
      <div
        className={cn(
          'mx-auto grid max-w-7xl gap-10 px-4 pt-8 pb-12 sm:px-6 md:pb-16 lg:px-8',
          aside ? 'lg:grid-cols-[1.4fr_1fr] lg:items-center' : '',
        )}
      >
        <div className="flex flex-col items-start gap-5">
          <Breadcrumb crumbs={crumbs} />
          {kicker ? <p className="font-semibold text-sepia text-sm uppercase tracking-wider">{kicker}</p> : null}
          <h1 className="max-w-3xl text-title" lang={lang === 'en' ? 'en' : undefined}>
            {title}
          </h1>
          {intro ? <div className="max-w-2xl text-lg text-muted-foreground">{intro}</div> : null}
          {actions ? <div className="flex flex-wrap gap-3">{actions}</div> : null}
        </div>
        {aside ? <div className="hidden lg:block">{aside}</div> : null}
      </div>
    </div>
  );
}
