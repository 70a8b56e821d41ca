import type * as React from 'react';
import { cn } from '~/components/ui/cn';
import { useHydrated } from '../use-hydrated';

interface AuthPageProps {
  title: string;
  subtitle?: React.ReactNode;
  children: React.ReactNode;
  /** Links under the card (to /register, back to sign-in...). */
  footer?: React.ReactNode;
  className?: string;
}

/** The frame of the sign-in pages: a centred card on the paper background, heading first. */
export function AuthPage({ title, subtitle, children, footer, className }: AuthPageProps) {
  const hydrated = useHydrated();
  return (
    <section
      aria-labelledby="auth-title"
      data-hydrated={hydrated}
      className={cn('mx-auto flex w-full max-w-md flex-1 flex-col gap-6 px-4 py-10 sm:py-16', className)}
    >
      <div className="flex flex-col gap-2 text-center">
        <h1 id="auth-title" className="text-title">
          {title}
        </h1>
        {subtitle ? <div className="text-muted-foreground">{subtitle}</div> : null}
      </div>
      <div className="flex flex-col gap-5 rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">{children}</div>
      {footer ? <div className="flex flex-col items-center gap-2 text-center text-sm">{footer}</div> : null}
    </section>
  );
}
