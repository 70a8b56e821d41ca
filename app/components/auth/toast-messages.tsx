import { useEffect } from 'react';
import { toast } from '~/components/ui/toaster';
import { type AccountToastKey, accountToast, type ToastMessage } from '~/domain/account/toasts';

/** A toast sent by the server: a known key (flash cookie) or a message of an action, with a unique id. */
export type ServerToast = { key: AccountToastKey; id: string } | (ToastMessage & { id: string });

function messageOf(value: ServerToast): ToastMessage {
  return 'key' in value ? accountToast(value.key) : value;
}

export function showToast(message: ToastMessage, id?: string) {
  const options = { id, description: message.description };
  if (message.kind === 'success') toast.success(message.title, options);
  else if (message.kind === 'error') toast.error(message.title, options);
  else toast.info(message.title, options);
}

/**
 * Shows the server's toast once (sonner keeps one toast per id). Without JavaScript there is no
 * toast: the same words are rendered in a <noscript> block by <ServerToastFallback>.
 */
export function useServerToast(value: ServerToast | null | undefined) {
  const id = value?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: one toast per id, whatever else changes
  useEffect(() => {
    if (value) showToast(messageOf(value), value.id);
  }, [id]);
}

/** The toast's words for browsers without JavaScript. */
export function ServerToastFallback({ value }: { value: ServerToast | null | undefined }) {
  if (!value) return null;
  const message = messageOf(value);
  return (
    <noscript>
      <p className="rounded-md border border-border bg-muted px-3 py-2.5 text-sm">
        <strong>{message.title}</strong>
        {message.description ? ` — ${message.description}` : null}
      </p>
    </noscript>
  );
}
