import {
  BarChart3Icon,
  CalculatorIcon,
  FileSpreadsheetIcon,
  FileUpIcon,
  FlaskConicalIcon,
  GiftIcon,
  ScrollTextIcon,
  ShieldCheckIcon,
  ShoppingBagIcon,
  TagIcon,
  TicketPercentIcon,
  UsersIcon,
  UsersRoundIcon,
  WrenchIcon,
} from 'lucide-react';
import { NavLink, useLocation } from 'react-router';
import { cn } from '~/components/ui/cn';
import type { Role } from '~/domain/account/session-user';
import { can } from '~/domain/staff/permissions';

/**
 * The six original tabs, e-reporting, the workshop board, the gift cards, the promotion codes, the team and the journal, one URL each
 * (Commandes is /admin itself), each with the capability its page asks for (docs/decisions/016).
 */
export const ADMIN_TABS = [
  { path: '/admin', label: 'Commandes', icon: ShoppingBagIcon, searchable: true, capability: 'orders.read' },
  { path: '/admin/atelier', label: 'Atelier', icon: WrenchIcon, searchable: false, capability: 'workshop' },
  { path: '/admin/clients', label: 'Clients', icon: UsersIcon, searchable: true, capability: 'customers' },
  { path: '/admin/tarifs', label: 'Tarifs', icon: TagIcon, searchable: false, capability: 'prices' },
  { path: '/admin/rapports', label: 'Rapports', icon: BarChart3Icon, searchable: false, capability: 'reports' },
  {
    path: '/admin/comptabilite',
    label: 'Comptabilité',
    icon: CalculatorIcon,
    searchable: true,
    capability: 'accounting',
  },
  {
    path: '/admin/exports-comptables',
    label: 'Exports comptables',
    icon: FileSpreadsheetIcon,
    searchable: false,
    capability: 'accounting',
  },
  // The consumer sales and payments declared to the tax administration (decision 051).
  { path: '/admin/e-reporting', label: 'E-reporting', icon: FileUpIcon, searchable: false, capability: 'accounting' },
  // Not searchable: a term typed there is posted (a whole code never goes into an address).
  {
    path: '/admin/cartes-cadeaux',
    label: 'Cartes cadeaux',
    icon: GiftIcon,
    searchable: false,
    capability: 'giftcards',
  },
  {
    path: '/admin/codes-promo',
    label: 'Codes promo',
    icon: TicketPercentIcon,
    searchable: false,
    capability: 'promotions',
  },
  { path: '/admin/tests', label: 'Tests', icon: FlaskConicalIcon, searchable: false, capability: 'tests' },
  { path: '/admin/equipe', label: 'Équipe', icon: UsersRoundIcon, searchable: false, capability: 'team' },
  { path: '/admin/journal', label: 'Journal', icon: ScrollTextIcon, searchable: false, capability: 'journal' },
  { path: '/admin/securite', label: 'Sécurité', icon: ShieldCheckIcon, searchable: false, capability: 'dashboard' },
] as const;

export function searchTargetFor(pathname: string): string {
  const tab = ADMIN_TABS.find((t) => t.path === pathname);
  return tab?.searchable ? tab.path : '/admin';
}

/**
 * The tabs as links (each tab is a page: reloadable, shareable, and its data is loaded on the
 * server). The search term follows the visitor from one list to another.
 */
export function AdminTabs({ role }: { role: Role }) {
  const location = useLocation();
  const q = new URLSearchParams(location.search).get('q');
  return (
    <nav aria-label="Sections du tableau de bord" className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <ul className="inline-flex min-w-max items-center gap-1 rounded-lg bg-muted p-1 text-muted-foreground">
        {ADMIN_TABS.filter((tab) => can(role, tab.capability)).map((tab) => {
          const Icon = tab.icon;
          const search = q && tab.searchable ? `?${new URLSearchParams({ q })}` : '';
          return (
            <li key={tab.path}>
              <NavLink
                to={`${tab.path}${search}`}
                end
                className={({ isActive }) =>
                  cn(
                    'inline-flex h-9 items-center gap-2 whitespace-nowrap rounded-md px-3 font-medium text-sm transition-colors hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2 [&_svg]:size-4',
                    isActive && 'bg-card text-foreground shadow-sm',
                  )
                }
              >
                <Icon aria-hidden="true" />
                {tab.label}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
