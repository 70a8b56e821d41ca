import { AlertTriangleIcon, CheckCircle2Icon, CircleDashedIcon, PlayIcon, RocketIcon, XCircleIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useFetcher } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';
import { cn } from '~/components/ui/cn';
import { toast } from '~/components/ui/toaster';
import {
  CHECKLIST_STATE_LABELS,
  type ChecklistItem,
  type ChecklistState,
  checklistPercent,
  isReadyForProduction,
  PLATFORM_TEST_LABELS,
  PLATFORM_TEST_STATE_LABELS,
  PLATFORM_TESTS,
  type PlatformTestResult,
  type PlatformTestState,
} from '~/domain/admin/checklist';
import { PLATFORM_TEST_MESSAGES } from '~/domain/admin/messages';

const CHECK_ICONS: Record<ChecklistState, { icon: typeof CheckCircle2Icon; className: string }> = {
  complete: { icon: CheckCircle2Icon, className: 'text-success' },
  warning: { icon: AlertTriangleIcon, className: 'text-sepia' },
  incomplete: { icon: XCircleIcon, className: 'text-destructive' },
};

const TEST_ICONS: Record<PlatformTestState, { icon: typeof CheckCircle2Icon; className: string }> = {
  success: { icon: CheckCircle2Icon, className: 'text-success' },
  warning: { icon: AlertTriangleIcon, className: 'text-sepia' },
  error: { icon: XCircleIcon, className: 'text-destructive' },
  pending: { icon: CircleDashedIcon, className: 'animate-spin text-muted-foreground' },
};

/** The production checklist: 8 items, percent complete (rounded), the banner at 80 % or more. */
export function ProductionChecklist({ items }: { items: ChecklistItem[] }) {
  const percent = checklistPercent(items);
  const ready = isReadyForProduction(percent);
  return (
    <section
      aria-labelledby="checklist-production"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="checklist-production" className="font-heading font-semibold text-xl">
          Checklist de mise en production
        </h2>
        <p className="font-semibold text-lg tabular-nums">{percent}&#8239;% terminé</p>
      </div>
      <div
        role="progressbar"
        aria-label="Avancement de la checklist"
        aria-valuenow={percent}
        aria-valuemin={0}
        aria-valuemax={100}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div
          className={cn('h-full rounded-full', ready ? 'bg-success' : 'bg-accent')}
          style={{ width: `${percent}%` }}
        />
      </div>
      {ready ? (
        <Alert variant="success" icon={RocketIcon} className="font-medium">
          Prêt pour la production
        </Alert>
      ) : null}
      <ul className="flex flex-col divide-y divide-border">
        {items.map((item) => {
          const { icon: Icon, className } = CHECK_ICONS[item.state];
          return (
            <li key={item.id} className="flex items-start gap-3 py-2.5">
              <Icon className={cn('mt-0.5 size-5 shrink-0', className)} aria-hidden="true" />
              <div className="flex-1">
                <p className="font-medium">
                  {item.label} <span className="sr-only">: {CHECKLIST_STATE_LABELS[item.state]}</span>
                </p>
                <p className="text-muted-foreground text-sm">{item.detail}</p>
              </div>
              <span className="text-muted-foreground text-xs" aria-hidden="true">
                {CHECKLIST_STATE_LABELS[item.state]}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The platform functionality test: real probes on the server, each success, warning, error or pending. */
export function PlatformTest() {
  const fetcher = useFetcher<{ results: PlatformTestResult[] }>();
  const handled = useRef<unknown>(null);
  const running = fetcher.state !== 'idle';
  const results = fetcher.data?.results;

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data || handled.current === fetcher.data) return;
    handled.current = fetcher.data;
    toast.success(PLATFORM_TEST_MESSAGES.completed);
  }, [fetcher.state, fetcher.data]);

  const rows: PlatformTestResult[] = PLATFORM_TESTS.map(
    (id) =>
      (!running ? results?.find((r) => r.id === id) : undefined) ?? {
        id,
        label: PLATFORM_TEST_LABELS[id],
        state: 'pending',
        message: running ? 'Test en cours…' : 'Pas encore lancé',
        durationMs: 0,
      },
  );
  return (
    <section
      aria-labelledby="test-plateforme"
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="test-plateforme" className="font-heading font-semibold text-xl">
          Test de fonctionnement de la plateforme
        </h2>
        <fetcher.Form method="post">
          <Button type="submit" name="intent" value="platform-test" disabled={running}>
            <PlayIcon aria-hidden="true" />
            {running ? 'Tests en cours…' : 'Lancer les tests'}
          </Button>
        </fetcher.Form>
      </div>
      <ul className="flex flex-col divide-y divide-border" aria-live="polite">
        {rows.map((row) => {
          const { icon: Icon, className } = TEST_ICONS[row.state];
          const showIcon = row.state !== 'pending' || running;
          return (
            <li key={row.id} className="flex items-start gap-3 py-2.5" data-state={row.state}>
              {showIcon ? (
                <Icon className={cn('mt-0.5 size-5 shrink-0', className)} aria-hidden="true" />
              ) : (
                <CircleDashedIcon className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden="true" />
              )}
              <div className="flex-1">
                <p className="font-medium">
                  {row.label} <span className="sr-only">: {PLATFORM_TEST_STATE_LABELS[row.state]}</span>
                </p>
                <p className="text-muted-foreground text-sm">{row.message}</p>
              </div>
              <span className="text-muted-foreground text-xs" aria-hidden="true">
                {PLATFORM_TEST_STATE_LABELS[row.state]}
                {row.durationMs > 0 ? ` · ${row.durationMs} ms` : ''}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
