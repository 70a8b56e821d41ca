import { Form } from 'react-router';
import { Badge } from '~/components/ui/badge';
import { Button } from '~/components/ui/button';
import { SHARE_STATE_LABELS, type ShareState } from '~/domain/files/sharing';
import { formatDateFr, formatDateTimeFr } from '~/domain/format';

/*
 * The customer's shares (decision 028): what each one holds, for how long, who was invited,
 * how many times it was opened and when last, its link to copy, and « Arrêter ce partage » (a
 * plain form post: works without JavaScript).
 */

export interface ShareListItem {
  id: string;
  url: string | null;
  label: string | null;
  scope: 'all' | 'selection';
  fileCount: number;
  allowDownloads: boolean;
  state: ShareState;
  expiresAt: Date | string;
  revokedAt: Date | string | null;
  accessCount: number;
  lastAccessAt: Date | string | null;
  createdAt: Date | string;
  invited: string[];
}

const STATE_VARIANT: Record<ShareState, 'success' | 'neutral' | 'danger'> = {
  active: 'success',
  expired: 'neutral',
  revoked: 'danger',
};

function files(count: number): string {
  return count === 1 ? '1 fichier' : `${count} fichiers`;
}

export function ShareList({
  shares,
  canRevoke,
  highlight,
}: {
  shares: readonly ShareListItem[];
  canRevoke: boolean;
  highlight: string | null;
}) {
  return (
    <section aria-labelledby="share-list-title" className="flex flex-col gap-3">
      <h2 id="share-list-title" className="font-semibold text-xl">
        Vos partages
      </h2>
      {shares.length === 0 ? (
        <p className="text-muted-foreground">Vous n’avez encore rien partagé.</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {shares.map((share) => (
            <ShareCard key={share.id} share={share} canRevoke={canRevoke} highlighted={highlight === share.id} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** What the share holds: all the customer's files, or the ones they picked. */
function scopeText(share: ShareListItem): string {
  if (share.scope === 'all') return `Tous vos fichiers (${files(share.fileCount)})`;
  return `${files(share.fileCount)} choisi${share.fileCount > 1 ? 's' : ''}`;
}

/** How often the link was opened, and when last (a share never opened says so). */
function accessText(share: ShareListItem): string {
  if (share.accessCount === 0) return 'Pas encore ouvert';
  const last = share.lastAccessAt ? `, la dernière le ${formatDateTimeFr(share.lastAccessAt)}` : '';
  return `Ouvert ${share.accessCount} fois${last}`;
}

/** One share: its facts, its link while it is open, and the form that stops it. */
function ShareCard({
  share,
  canRevoke,
  highlighted,
}: {
  share: ShareListItem;
  canRevoke: boolean;
  highlighted: boolean;
}) {
  const name = share.label ?? `Partage du ${formatDateFr(share.createdAt)}`;
  const headingId = `partage-${share.id}-titre`;
  return (
    <li
      id={`partage-${share.id}`}
      aria-labelledby={headingId}
      data-share-state={share.state}
      className={`flex flex-col gap-3 rounded-lg border bg-card p-4 ${highlighted ? 'border-primary' : 'border-border'}`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-semibold">
          {name}
        </h3>
        <Badge variant={STATE_VARIANT[share.state]}>{SHARE_STATE_LABELS[share.state]}</Badge>
      </div>
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="text-muted-foreground">Fichiers</dt>
        <dd>{scopeText(share)}</dd>
        <dt className="text-muted-foreground">Vos proches peuvent</dt>
        <dd>{share.allowDownloads ? 'Regarder et télécharger' : 'Regarder seulement'}</dd>
        <dt className="text-muted-foreground">{share.state === 'active' ? 'Ouvert jusqu’au' : 'Fin'}</dt>
        <dd>{formatDateFr(share.revokedAt ?? share.expiresAt)}</dd>
        <dt className="text-muted-foreground">Consultations</dt>
        <dd data-testid="share-access">{accessText(share)}</dd>
        {share.invited.length > 0 ? (
          <>
            <dt className="text-muted-foreground">Invitations envoyées à</dt>
            <dd className="break-all">{share.invited.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      {share.state === 'active' && share.url ? (
        <div className="flex flex-col gap-1">
          <label htmlFor={`partage-${share.id}-lien`} className="font-medium text-sm">
            Lien à envoyer
          </label>
          <input
            id={`partage-${share.id}-lien`}
            readOnly
            value={share.url}
            className="h-10 w-full min-w-0 rounded-md border border-input bg-muted px-3 font-mono text-sm"
          />
        </div>
      ) : null}
      {canRevoke && share.state === 'active' ? (
        <Form method="post" className="flex">
          <input type="hidden" name="intent" value="revoke" />
          <input type="hidden" name="shareId" value={share.id} />
          <Button type="submit" variant="outline" size="sm">
            Arrêter ce partage<span className="sr-only"> : {name}</span>
          </Button>
        </Form>
      ) : null}
    </li>
  );
}
