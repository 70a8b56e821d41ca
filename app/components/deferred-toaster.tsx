import { useEffect, useState } from 'react';

type ToasterModule = Pick<typeof import('./ui/toaster'), 'Toaster' | 'toast'>;
type ToasterProps = Parameters<ToasterModule['Toaster']>[0];

/**
 * The frame's toasts, with sonner (~10 KB compressed) fetched after hydration instead of with every
 * page's first scripts: the public pages never show a toast, and the pages that do import sonner
 * themselves. A toast raised before it is mounted (a page's effect on load) is kept in sonner's
 * store: it is shown as soon as the toaster arrives.
 */
export function DeferredToaster(props: ToasterProps) {
  const [loaded, setLoaded] = useState<ToasterModule | null>(null);
  useEffect(() => {
    let mounted = true;
    void import('./ui/toaster').then(({ Toaster, toast }) => {
      if (mounted) setLoaded({ Toaster, toast });
    });
    return () => {
      mounted = false;
    };
  }, []);
  if (!loaded) return null;
  return (
    <>
      <loaded.Toaster {...props} />
      <ShowEarlyToasts toast={loaded.toast} />
    </>
  );
}

/** Sonner's toaster only listens from its mount on: the toasts already in its store are published again. */
function ShowEarlyToasts({ toast }: { toast: ToasterModule['toast'] }) {
  // Runs after the toaster's own effects (a later sibling), once it listens.
  useEffect(() => {
    for (const early of toast.getToasts()) {
      if (!('dismiss' in early)) toast(early.title as string, early);
    }
  }, [toast]);
  return null;
}
