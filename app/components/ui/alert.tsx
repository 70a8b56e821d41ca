import { cva } from 'class-variance-authority';
import { CircleAlertIcon, CircleCheckIcon, InfoIcon, type LucideIcon, TriangleAlertIcon } from 'lucide-react';
import type * as React from 'react';
import { cn } from './cn';

export type AlertVariant = 'info' | 'success' | 'warning' | 'danger';

// The status tints of app/app.css: each text colour keeps at least 7:1 on its background.
const alertVariants = cva('flex flex-wrap items-start justify-between gap-3 rounded-md border px-3 py-2.5 text-sm', {
  variants: {
    variant: {
      info: 'border-info-tint-border bg-info-tint text-info-tint-foreground',
      success: 'border-success-tint-border bg-success-tint text-success-tint-foreground',
      warning: 'border-warning-tint-border bg-warning-tint text-warning-tint-foreground',
      danger: 'border-danger-tint-border bg-danger-tint text-danger-tint-foreground',
    },
  },
  defaultVariants: { variant: 'info' },
});

const ICONS: Record<AlertVariant, LucideIcon> = {
  info: InfoIcon,
  success: CircleCheckIcon,
  warning: TriangleAlertIcon,
  danger: CircleAlertIcon,
};

export interface AlertProps extends Omit<React.ComponentProps<'div'>, 'title' | 'role'> {
  variant?: AlertVariant;
  /** The first line, in bold; `titleAs` makes it a heading where the box starts a section. */
  title?: React.ReactNode;
  titleAs?: 'p' | 'h2' | 'h3';
  /**
   * `alert` interrupts the screen reader (an error to act on), `status` waits politely; `none` for a
   * notice that is simply part of the page. A danger box is an alert unless told otherwise.
   */
  role?: 'alert' | 'status' | 'none';
  /** Replaces the variant's icon (the colour alone never carries the meaning). */
  icon?: LucideIcon;
  /** A button or link shown beside the text (wraps under it on a phone). */
  action?: React.ReactNode;
}

/** The one box for a message: an error, a confirmation, a warning or a piece of information. */
export function Alert({
  variant = 'info',
  title,
  titleAs: Title = 'p',
  role,
  icon,
  action,
  className,
  children,
  ...props
}: AlertProps) {
  const Icon = icon ?? ICONS[variant];
  const liveRole = role ?? (variant === 'danger' ? 'alert' : 'status');
  return (
    <div
      data-slot="alert"
      role={liveRole === 'none' ? undefined : liveRole}
      className={cn(alertVariants({ variant }), className)}
      {...props}
    >
      <div className="flex min-w-0 flex-1 items-start gap-2.5">
        <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          {title ? <Title className="font-semibold text-sm">{title}</Title> : null}
          {children}
        </div>
      </div>
      {action}
    </div>
  );
}
