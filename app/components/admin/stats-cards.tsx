import {
  ChevronDownIcon,
  ClockIcon,
  CreditCardIcon,
  EuroIcon,
  PercentIcon,
  ShoppingBagIcon,
  TrendingDownIcon,
  TrendingUpIcon,
  UsersIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '~/components/ui/button';
import { cn } from '~/components/ui/cn';
import { type DashboardStats, formatCount, formatPercent, formatTrend } from '~/domain/admin/stats';
import { formatDateTimeFr, formatEurosFromCents } from '~/domain/format';

function Trend({ value, label }: { value: number | null; label: string }) {
  if (value === null) return <p className="text-muted-foreground text-xs">Pas de comparaison sur 30 jours</p>;
  const Icon = value >= 0 ? TrendingUpIcon : TrendingDownIcon;
  return (
    <p className={cn('flex items-center gap-1 text-xs', value >= 0 ? 'text-success' : 'text-destructive')}>
      <Icon className="size-3.5" aria-hidden="true" />
      <span>
        {formatTrend(value)} <span className="text-muted-foreground">{label}</span>
      </span>
    </p>
  );
}

function StatCard({
  title,
  value,
  icon: Icon,
  children,
}: {
  title: string;
  value: string;
  icon: typeof EuroIcon;
  children?: React.ReactNode;
}) {
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-xl border border-border bg-card p-3 shadow-sm sm:p-4">
      <div className="flex items-center justify-between gap-2">
        <h3 className="font-medium text-muted-foreground text-sm">{title}</h3>
        <Icon className="size-4 text-muted-foreground" aria-hidden="true" />
      </div>
      <p className="font-heading font-semibold text-xl tabular-nums sm:text-2xl">{value}</p>
      {children}
    </li>
  );
}

/**
 * The dashboard's statistics cards, computed in SQL (see stats.server.ts). On a phone they
 * would fill the first screen of every tab: there they are folded behind « Statistiques »
 * (aria-expanded), and always shown from the md breakpoint up.
 */
export function StatsCards({ stats }: { stats: DashboardStats }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  return (
    <section aria-labelledby="statistiques" className="flex flex-col gap-2">
      <h2 id="statistiques" className="sr-only">
        Statistiques
      </h2>
      <Button
        type="button"
        variant="outline"
        className="justify-between md:hidden"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        {open ? 'Masquer les statistiques' : 'Afficher les statistiques'}
        <ChevronDownIcon className={cn('transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </Button>
      <ul
        id={listId}
        className={cn('grid-cols-2 gap-3 md:grid lg:grid-cols-3 xl:grid-cols-6', open ? 'grid' : 'hidden')}
      >
        <StatCard title="Chiffre d’affaires" value={formatEurosFromCents(stats.totalRevenueCents)} icon={EuroIcon}>
          <Trend value={stats.revenueTrend} label="sur 30 jours" />
        </StatCard>
        <StatCard title="Commandes" value={formatCount(stats.totalOrders)} icon={ShoppingBagIcon}>
          <Trend value={stats.ordersTrend} label="sur 30 jours" />
        </StatCard>
        <StatCard title="Clients" value={formatCount(stats.totalCustomers)} icon={UsersIcon}>
          <p className="text-muted-foreground text-xs">Comptes clients</p>
        </StatCard>
        <StatCard title="Commandes en attente" value={formatCount(stats.pendingOrders)} icon={ClockIcon}>
          <p className="text-muted-foreground text-xs">Statut « En attente »</p>
        </StatCard>
        <StatCard title="Paiements" value={formatPercent(stats.paymentSuccess)} icon={CreditCardIcon}>
          <p className="text-muted-foreground text-xs">
            <span className="text-success">{formatCount(stats.paymentSuccessCount)} payées</span> ·{' '}
            {formatCount(stats.paymentPendingCount)} en attente ({formatPercent(stats.paymentPending)}) ·{' '}
            <span className="text-destructive">
              {formatCount(stats.paymentFailedCount)} en échec ({formatPercent(stats.paymentFailed)})
            </span>
          </p>
        </StatCard>
        <StatCard title="Taux de conversion" value={formatPercent(stats.conversionRate)} icon={PercentIcon}>
          <p className="text-muted-foreground text-xs">Commandes payées sur commandes créées</p>
        </StatCard>
      </ul>
      <p className={cn('text-muted-foreground text-xs md:block', open ? 'block' : 'hidden')}>
        Chiffres du {formatDateTimeFr(stats.computedAt)}
      </p>
    </section>
  );
}
