import { LoaderCircleIcon } from 'lucide-react';
import type * as React from 'react';
import { cn } from './cn';

interface SpinnerProps extends React.ComponentProps<'span'> {
  /** What is being waited for, read by screen readers; shown next to the icon when `showLabel`. */
  label?: string;
  showLabel?: boolean;
}

export function Spinner({ label = 'Chargement…', showLabel = false, className, ...props }: SpinnerProps) {
  return (
    <span
      data-slot="spinner"
      role="status"
      className={cn('inline-flex items-center gap-2 text-muted-foreground text-sm', className)}
      {...props}
    >
      <LoaderCircleIcon className="size-5 animate-spin text-primary" aria-hidden="true" />
      <span className={showLabel ? undefined : 'sr-only'}>{label}</span>
    </span>
  );
}
