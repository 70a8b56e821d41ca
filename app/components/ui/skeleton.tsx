import type * as React from 'react';
import { cn } from './cn';

/** A placeholder block while content loads; hidden from assistive technologies. */
export function Skeleton({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="skeleton"
      aria-hidden="true"
      className={cn('animate-pulse rounded-md bg-secondary', className)}
      {...props}
    />
  );
}
