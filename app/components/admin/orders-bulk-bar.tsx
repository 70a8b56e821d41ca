import { DownloadIcon, PrinterIcon } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useFetcher } from 'react-router';
import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { Label } from '~/components/ui/label';
import { toast } from '~/components/ui/toaster';
import type { Role } from '~/domain/account/session-user';
import {
  BULK_STAGE_TARGETS,
  BULK_STATUS_TARGETS,
  type BulkActionData,
  type BulkRefusal,
} from '~/domain/admin/bulk-orders';
import { frenchTypography } from '~/domain/format';
import { ORDER_STATUS_LABELS, WORKSHOP_STAGE_LABELS } from '~/domain/order-status';
import { can } from '~/domain/staff/permissions';

export const ORDERS_BULK_PATH = '/admin/api/commandes/lot';

/** `status:processing` / `stage:digitising`: the one select's value says the kind and the target. */
function changeFields(change: string): { kind: string; target: string } {
  const [kind = '', target = ''] = change.split(':');
  return { kind, target };
}

function bulkForm(intent: 'preview' | 'apply', change: string, ids: readonly string[]): FormData {
  const form = new FormData();
  const { kind, target } = changeFields(change);
  form.set('intent', intent);
  form.set('kind', kind);
  form.set('target', target);
  for (const id of ids) form.append('ids', id);
  return form;
}

const selectionQuery = (ids: readonly string[]) => ids.map((id) => `ids=${encodeURIComponent(id)}`).join('&');

function RefusalList({ refused }: { refused: readonly BulkRefusal[] }) {
  if (refused.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <p className="font-medium text-sm">
        {refused.length > 1
          ? `${refused.length} commandes ne peuvent pas changer :`
          : '1 commande ne peut pas changer :'}
      </p>
      <ul className="max-h-48 list-disc overflow-y-auto pl-5 text-muted-foreground text-sm">
        {refused.map((r) => (
          <li key={r.orderId}>{frenchTypography(`${r.number || 'Commande inconnue'} : ${r.reason}`)}</li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The bar over the orders table: how many are selected, a status or stage change (confirmed in a
 * dialog that lists what will move and what cannot, and why), the export of the selection, and its
 * job sheets in one PDF.
 */
export function OrdersBulkBar({
  ids,
  onApplied,
  role,
}: {
  ids: readonly string[];
  onApplied: () => void;
  /** Each control shows only to a role that may use it (the server checks again). */
  role: Role;
}) {
  const mayChange = can(role, 'orders.write');
  const selectId = useId();
  const [change, setChange] = useState('');
  const preview = useFetcher<BulkActionData>({ key: 'orders-bulk-preview' });
  const apply = useFetcher<BulkActionData>({ key: 'orders-bulk-apply' });
  const [confirming, setConfirming] = useState(false);
  const handled = useRef<unknown>(null);

  useEffect(() => {
    if (preview.state === 'idle' && preview.data?.ok) setConfirming(true);
  }, [preview.state, preview.data]);

  useEffect(() => {
    const result = apply.data;
    if (apply.state !== 'idle' || !result || handled.current === result) return;
    handled.current = result;
    setConfirming(false);
    if (!result.ok) {
      toast.error(result.error);
      return;
    }
    if (result.outcome.refused.length > 0) toast.warning(result.headline);
    else toast.success(result.headline);
    onApplied();
  }, [apply.state, apply.data, onApplied]);

  const count = ids.length;
  const previewError = preview.state === 'idle' && preview.data && !preview.data.ok ? preview.data.error : null;
  const previewed = preview.data?.ok ? preview.data : null;
  const none = count === 0;
  return (
    <section
      aria-label="Actions sur la sélection"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-3"
    >
      <p className="font-medium text-sm" aria-live="polite">
        {none
          ? 'Aucune commande sélectionnée'
          : `${count} commande${count > 1 ? 's' : ''} sélectionnée${count > 1 ? 's' : ''}`}
      </p>
      <form
        className="flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          event.preventDefault();
          preview.submit(bulkForm('preview', change, ids), { method: 'post', action: ORDERS_BULK_PATH });
        }}
      >
        {mayChange ? (
          <>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={selectId}>Changer la sélection</Label>
              <select
                id={selectId}
                value={change}
                onChange={(event) => setChange(event.target.value)}
                aria-describedby={previewError ? `${selectId}-error` : undefined}
                className="h-10 rounded-md border border-input bg-card px-3 text-base shadow-xs focus-visible:outline-2 focus-visible:outline-ring md:text-sm"
              >
                <option value="">Choisir un statut ou une étape</option>
                <optgroup label="Statut">
                  {BULK_STATUS_TARGETS.map((s) => (
                    <option key={s} value={`status:${s}`}>
                      {`Statut : ${ORDER_STATUS_LABELS[s]}`}
                    </option>
                  ))}
                </optgroup>
                <optgroup label="Étape à l’atelier">
                  {BULK_STAGE_TARGETS.map((s) => (
                    <option key={s} value={`stage:${s}`}>
                      {`Étape : ${WORKSHOP_STAGE_LABELS[s]}`}
                    </option>
                  ))}
                </optgroup>
              </select>
            </div>
            <Button type="submit" disabled={preview.state !== 'idle'}>
              {preview.state !== 'idle' ? 'Vérification…' : 'Appliquer…'}
            </Button>
          </>
        ) : null}
        {can(role, 'exports') ? (
          <SelectionLink
            disabled={none}
            href={`/admin/exports/commandes?format=csv&${selectionQuery(ids)}`}
            icon={<DownloadIcon aria-hidden="true" />}
            label="Exporter la sélection (CSV)"
            download
          />
        ) : null}
        {can(role, 'workshop') ? (
          <SelectionLink
            disabled={none}
            href={`/admin/commandes/fiches-atelier.pdf?${selectionQuery(ids)}`}
            icon={<PrinterIcon aria-hidden="true" />}
            label="Imprimer les fiches atelier"
          />
        ) : null}
      </form>
      {previewError ? (
        <p id={`${selectId}-error`} role="alert" className="text-destructive text-sm">
          {frenchTypography(previewError)}
        </p>
      ) : null}
      <Dialog open={confirming && previewed !== null} onOpenChange={setConfirming}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Confirmer le changement</DialogTitle>
            <DialogDescription>{previewed?.headline}</DialogDescription>
          </DialogHeader>
          <RefusalList refused={previewed?.outcome.refused ?? []} />
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirming(false)}>
              Annuler
            </Button>
            <Button
              disabled={apply.state !== 'idle' || !previewed?.outcome.accepted.length}
              onClick={() =>
                apply.submit(
                  bulkForm(
                    'apply',
                    change,
                    (previewed?.outcome.accepted ?? []).map((o) => o.orderId),
                  ),
                  { method: 'post', action: ORDERS_BULK_PATH },
                )
              }
            >
              {apply.state !== 'idle' ? 'Application…' : 'Confirmer'}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </section>
  );
}

/** A link on the selection (export, job sheets), shown disabled while nothing is selected. */
function SelectionLink({
  disabled,
  href,
  icon,
  label,
  download,
}: {
  disabled: boolean;
  href: string;
  icon: React.ReactNode;
  label: string;
  download?: boolean;
}) {
  if (disabled) {
    return (
      <Button type="button" variant="outline" disabled>
        {icon}
        {label}
      </Button>
    );
  }
  return (
    <Button asChild variant="outline">
      <a href={href} download={download || undefined} target={download ? undefined : '_blank'} rel="noreferrer">
        {icon}
        {label}
      </a>
    </Button>
  );
}
