import { DownloadIcon } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { TabError } from '~/components/admin/tab-error';
import { Button } from '~/components/ui/button';
import { Input } from '~/components/ui/input';
import { Label } from '~/components/ui/label';
import { Spinner } from '~/components/ui/spinner';
import { useHydrated } from '~/components/use-hydrated';
import { EXPORT_DATASET_LABELS, EXPORT_DATASETS, MAX_EXPORT_DAYS } from '~/domain/admin/exports';
import type { ReportsData } from '~/domain/admin/views';
import { formatDateTimeFr } from '~/domain/format';
import { requireStaff } from '~/server/admin/access.server';
import type { Route } from './+types/reports';

/*
 * The Rapports tab: charts (revenue per month, orders per support type, status distribution),
 * drawn in the browser from /admin/api/rapports once the tab is shown, and the CSV and Excel
 * exports of orders and invoices over a chosen period (plain GET forms: a download, with or
 * without JavaScript).
 */

const ReportsCharts = lazy(() => import('~/components/admin/reports-charts'));

export const REPORTS_DATA_PATH = '/admin/api/rapports';

function parisDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(date);
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireStaff(request, 'reports');
  const now = new Date();
  // The default period: the last 30 days.
  return { from: parisDay(new Date(now.getTime() - 29 * 86_400_000)), to: parisDay(now) };
}

function ExportForm({ dataset, from, to }: { dataset: (typeof EXPORT_DATASETS)[number]; from: string; to: string }) {
  const label = EXPORT_DATASET_LABELS[dataset];
  const prefix = `export-${dataset}`;
  return (
    <form
      method="get"
      action={`/admin/exports/${dataset}`}
      className="flex flex-col gap-3 rounded-lg border border-border bg-card p-4"
      aria-labelledby={`${prefix}-titre`}
    >
      <h3 id={`${prefix}-titre`} className="font-semibold">
        Exporter les {label.toLowerCase()}
      </h3>
      <div className="grid grid-cols-2 gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${prefix}-du`}>Du</Label>
          <Input id={`${prefix}-du`} type="date" name="from" defaultValue={from} required />
        </div>
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${prefix}-au`}>Au</Label>
          <Input id={`${prefix}-au`} type="date" name="to" defaultValue={to} required />
        </div>
      </div>
      <p className="text-muted-foreground text-xs">Période d’un an au plus ({MAX_EXPORT_DAYS} jours).</p>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="format" value="csv" variant="outline">
          <DownloadIcon aria-hidden="true" />
          CSV<span className="sr-only"> des {label.toLowerCase()}</span>
        </Button>
        <Button type="submit" name="format" value="xlsx">
          <DownloadIcon aria-hidden="true" />
          Excel<span className="sr-only"> des {label.toLowerCase()}</span>
        </Button>
      </div>
    </form>
  );
}

function Charts() {
  const fetcher = useFetcher<ReportsData>();
  const [requested, setRequested] = useState(false);
  useEffect(() => {
    if (!requested) {
      setRequested(true);
      fetcher.load(REPORTS_DATA_PATH);
    }
  }, [requested, fetcher]);
  if (!fetcher.data) return <Spinner label="Calcul des graphiques…" showLabel />;
  return (
    <div className="flex flex-col gap-2">
      <Suspense fallback={<Spinner label="Chargement des graphiques…" showLabel />}>
        <ReportsCharts data={fetcher.data} />
      </Suspense>
      <p className="text-muted-foreground text-xs">Données du {formatDateTimeFr(fetcher.data.computedAt)}</p>
    </div>
  );
}

export default function ReportsTab({ loaderData }: Route.ComponentProps) {
  const hydrated = useHydrated();
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="rapports-exports" className="flex flex-col gap-3">
        <h2 id="rapports-exports" className="font-heading font-semibold text-xl">
          Exports
        </h2>
        <div className="grid gap-4 md:grid-cols-2">
          {EXPORT_DATASETS.map((dataset) => (
            <ExportForm key={dataset} dataset={dataset} from={loaderData.from} to={loaderData.to} />
          ))}
        </div>
      </section>
      <section aria-labelledby="rapports-graphiques" className="flex flex-col gap-3">
        <h2 id="rapports-graphiques" className="font-heading font-semibold text-xl">
          Graphiques
        </h2>
        {hydrated ? (
          <Charts />
        ) : (
          <p className="text-muted-foreground text-sm">Les graphiques s’affichent avec JavaScript.</p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <TabError error={error} />;
}
