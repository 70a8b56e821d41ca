import { RotateCwIcon } from 'lucide-react';
import { useFetcher } from 'react-router';
import { Button } from '~/components/ui/button';
import { RESEND_REFUSALS } from '~/domain/admin/views';

type ResendResult = { ok: true; kind: 'retried' | 'copied' } | { ok: false; reason: string };

/** « Renvoyer » beside an e-mail of an order's history: a new copy goes through the outbox. */
export function ResendEmailButton({ emailId, label }: { emailId: string; label: string }) {
  const fetcher = useFetcher<ResendResult>();
  const result = fetcher.state === 'idle' ? fetcher.data : undefined;
  return (
    <fetcher.Form method="post" action="/admin/api/emails" className="inline-flex items-center gap-2">
      <input type="hidden" name="id" value={emailId} />
      <Button type="submit" name="intent" value="resend" size="sm" variant="ghost" disabled={fetcher.state !== 'idle'}>
        <RotateCwIcon aria-hidden="true" />
        Renvoyer<span className="sr-only"> l’e-mail « {label} »</span>
      </Button>
      <span role="status" className="text-muted-foreground text-xs">
        {result ? (result.ok ? 'E-mail renvoyé' : (RESEND_REFUSALS[result.reason] ?? 'Renvoi impossible')) : ''}
      </span>
    </fetcher.Form>
  );
}
