import * as Slot from '@radix-ui/react-slot';
import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from './cn';

// Tinted backgrounds with dark text of the same hue (app/app.css): every pair keeps at least 4.5:1.
// neutral / info / success / warning / danger are the tones of app/domain/order-status.ts.
export const badgeVariants = cva(
  'inline-flex w-fit shrink-0 items-center justify-center gap-1 whitespace-nowrap rounded-full border px-2.5 py-0.5 font-medium text-xs [&>svg]:size-3',
  {
    variants: {
      variant: {
        default: 'border-transparent bg-primary text-primary-foreground',
        secondary: 'border-transparent bg-secondary text-secondary-foreground',
        outline: 'border-input text-foreground',
        accent: 'border-transparent bg-accent text-accent-foreground',
        neutral: 'border-transparent bg-secondary text-secondary-foreground',
        success: 'border-transparent bg-success-tint text-success-tint-foreground',
        warning: 'border-transparent bg-warning-tint text-warning-tint-foreground',
        info: 'border-transparent bg-info-tint text-info-tint-foreground',
        danger: 'border-transparent bg-danger-tint text-danger-tint-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export interface BadgeProps extends React.ComponentProps<'span'>, VariantProps<typeof badgeVariants> {
  asChild?: boolean;
}

export function Badge({ className, variant, asChild = false, ...props }: BadgeProps) {
  const Comp = asChild ? Slot.Root : 'span';
  return <Comp data-slot="badge" className={cn(badgeVariants({ variant }), className)} {...props} />;
}
