import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  Legend,
  Pie,
  PieChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { supportLabel } from '~/domain/account/order-details';
import { formatCount } from '~/domain/admin/stats';
import type { ReportsData } from '~/domain/admin/views';
import { formatEurosFromCents } from '~/domain/format';
import { orderStatusLabel } from '~/domain/order-status';

/*
 * The Rapports tab's charts (recharts), rendered in the browser only: this module is loaded lazily
 * once the tab is shown. Each chart has a table equivalent for screen readers.
 */

const MONTHS = ['janv.', 'févr.', 'mars', 'avr.', 'mai', 'juin', 'juil.', 'août', 'sept.', 'oct.', 'nov.', 'déc.'];
// The palette's tokens (app/app.css): SVG fills accept CSS variables, so the charts follow the theme.
const STATUS_COLOURS: Record<string, string> = {
  pending: 'var(--color-warning)',
  processing: 'var(--color-primary)',
  completed: 'var(--color-success)',
  shipped: 'var(--color-success-soft)',
  canceled: 'var(--color-destructive)',
};

function monthLabel(month: string): string {
  const [year, m] = month.split('-');
  return `${MONTHS[Number(m) - 1] ?? m} ${year?.slice(2)}`;
}

const euros = (cents: number) => formatEurosFromCents(cents);
const compactEuros = new Intl.NumberFormat('fr-FR', { notation: 'compact', style: 'currency', currency: 'EUR' });

function ChartCard({ title, children, table }: { title: string; children: React.ReactNode; table: React.ReactNode }) {
  return (
    <figure className="flex flex-col gap-2 rounded-lg border border-border bg-card p-4">
      <figcaption className="font-semibold">{title}</figcaption>
      {/* The chart is a picture of the table below: hidden from assistive technology and out of the
          tab order (recharts' own keyboard layer would put a focusable element in a hidden region;
          its pie is focusable on its own, hence `inert` over the whole picture). */}
      <div className="h-80 w-full" aria-hidden="true" inert>
        {children}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">Voir les données</summary>
        {table}
      </details>
    </figure>
  );
}

export default function ReportsCharts({ data }: { data: ReportsData }) {
  const months = data.months.map((m) => ({ ...m, label: monthLabel(m.month), revenue: m.revenueCents }));
  const supports = data.supports.map((s) => ({ ...s, label: supportLabel(s.type) }));
  const statuses = data.statuses.filter((s) => s.orders > 0).map((s) => ({ ...s, label: orderStatusLabel(s.status) }));
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <div className="lg:col-span-2">
        <ChartCard
          title="Chiffre d’affaires par mois (commandes payées)"
          table={
            <table className="mt-2 w-full text-left">
              <thead>
                <tr>
                  <th scope="col">Mois</th>
                  <th scope="col">Chiffre d’affaires</th>
                  <th scope="col">Commandes</th>
                </tr>
              </thead>
              <tbody>
                {months.map((m) => (
                  <tr key={m.month}>
                    <td>{m.label}</td>
                    <td>{euros(m.revenueCents)}</td>
                    <td>{formatCount(m.orders)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          }
        >
          <ResponsiveContainer width="100%" height="100%">
            <BarChart accessibilityLayer={false} data={months} margin={{ top: 8, right: 8, left: 8, bottom: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" />
              <XAxis dataKey="label" fontSize={12} />
              <YAxis tickFormatter={(v: number) => compactEuros.format(v / 100)} fontSize={12} width={70} />
              <Tooltip formatter={(value) => euros(Number(value))} labelFormatter={(label) => String(label)} />
              <Bar
                dataKey="revenue"
                name="Chiffre d’affaires"
                fill="var(--color-primary)"
                radius={[4, 4, 0, 0]}
                isAnimationActive={false}
              />
            </BarChart>
          </ResponsiveContainer>
        </ChartCard>
      </div>
      <ChartCard
        title="Commandes par type de support (12 derniers mois)"
        table={
          <table className="mt-2 w-full text-left">
            <thead>
              <tr>
                <th scope="col">Support</th>
                <th scope="col">Commandes</th>
                <th scope="col">Quantité</th>
              </tr>
            </thead>
            <tbody>
              {supports.map((s) => (
                <tr key={s.type}>
                  <td>{s.label}</td>
                  <td>{formatCount(s.orders)}</td>
                  <td>{formatCount(s.quantity)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart
            accessibilityLayer={false}
            data={supports}
            layout="vertical"
            margin={{ top: 8, right: 16, left: 8, bottom: 8 }}
          >
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" />
            <XAxis type="number" fontSize={12} />
            <YAxis type="category" dataKey="label" width={140} fontSize={11} interval={0} />
            <Tooltip formatter={(value) => formatCount(Number(value))} />
            <Bar
              dataKey="orders"
              name="Commandes"
              fill="var(--color-accent)"
              radius={[0, 4, 4, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </ChartCard>
      <ChartCard
        title="Répartition des statuts"
        table={
          <table className="mt-2 w-full text-left">
            <thead>
              <tr>
                <th scope="col">Statut</th>
                <th scope="col">Commandes</th>
              </tr>
            </thead>
            <tbody>
              {data.statuses.map((s) => (
                <tr key={s.status}>
                  <td>{orderStatusLabel(s.status)}</td>
                  <td>{formatCount(s.orders)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        }
      >
        <ResponsiveContainer width="100%" height="100%">
          <PieChart accessibilityLayer={false}>
            <Pie
              data={statuses}
              dataKey="orders"
              nameKey="label"
              innerRadius="45%"
              outerRadius="80%"
              paddingAngle={2}
              isAnimationActive={false}
              rootTabIndex={-1}
            >
              {statuses.map((s) => (
                <Cell key={s.status} fill={STATUS_COLOURS[s.status] ?? 'var(--color-muted-foreground)'} />
              ))}
            </Pie>
            <Tooltip formatter={(value) => formatCount(Number(value))} />
            <Legend />
          </PieChart>
        </ResponsiveContainer>
      </ChartCard>
    </div>
  );
}
