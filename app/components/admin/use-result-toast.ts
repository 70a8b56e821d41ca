import { useEffect, useRef } from 'react';
import { toast } from '~/components/ui/toaster';

/** What the order dialog's actions answer: a confirmation, or a French refusal. */
export type ToastableResult = { ok: true; message: string } | { ok: false; error: string };

/**
 * Shows a fetcher's answer once as a toast (its confirmation or its refusal) and calls `onDone`
 * after a success. Once per answer: the dialog re-renders many times while it stays on screen.
 */
export function useResultToast(fetcher: { state: string; data?: ToastableResult | null }, onDone?: () => void): void {
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const result = fetcher.data;
    if (fetcher.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    if (result.ok) {
      toast.success(result.message);
      onDone?.();
    } else toast.error(result.error);
  }, [fetcher.state, fetcher.data, onDone]);
}
