import type * as React from 'react';
import { Toaster as Sonner } from 'sonner';

interface ToasterProps {
  /** 3 on the public site, 5 in the back office. */
  visibleToasts?: number;
}

const TOAST_STYLE = {
  '--width': '356px',
  '--normal-bg': 'var(--color-popover)',
  '--normal-text': 'var(--color-popover-foreground)',
  '--normal-border': 'var(--color-border)',
} as React.CSSProperties;

/** Sonner's toasts with the shop's settings: 4 s, 356 px wide, 14 px apart, French labels. */
export function Toaster({ visibleToasts = 3 }: ToasterProps) {
  return (
    <Sonner
      position="bottom-right"
      duration={4000}
      gap={14}
      visibleToasts={visibleToasts}
      closeButton
      containerAriaLabel="Notifications"
      style={TOAST_STYLE}
      toastOptions={{
        closeButtonAriaLabel: 'Fermer la notification',
        classNames: { toast: 'font-sans', description: 'text-muted-foreground' },
      }}
    />
  );
}

export { toast } from 'sonner';
