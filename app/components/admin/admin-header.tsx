import {
  CreditCardIcon,
  FolderClockIcon,
  ListChecksIcon,
  LogOutIcon,
  MailIcon,
  ReceiptTextIcon,
  SettingsIcon,
  TruckIcon,
} from 'lucide-react';
import { Form } from 'react-router';
import { Button } from '~/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '~/components/ui/dropdown-menu';
import type { Role } from '~/domain/account/session-user';
import type { NotificationFeed } from '~/domain/admin/notifications';
import { type Capability, can } from '~/domain/staff/permissions';
import { NotificationsPopover } from './notifications-popover';

export type SettingsDialog = 'coliship' | 'payment' | 'validation' | 'email' | 'files' | 'invoicing';

export const SETTINGS_DIALOG_TITLES: Readonly<Record<SettingsDialog, string>> = {
  coliship: 'Configuration Coliship',
  payment: 'Configuration Paiement',
  validation: 'Validation Paiements',
  email: 'Configuration Email',
  files: 'Fichiers livrés',
  invoicing: 'Facturation',
};

/** What each dialog needs (docs/decisions/016): payment validation is the accountant's too. */
const SETTINGS_CAPABILITIES: Readonly<Record<SettingsDialog, Capability>> = {
  coliship: 'settings',
  payment: 'settings',
  validation: 'payments.validate',
  email: 'settings',
  files: 'settings',
  invoicing: 'settings',
};

const SETTINGS_ICONS = {
  coliship: TruckIcon,
  payment: CreditCardIcon,
  validation: ListChecksIcon,
  email: MailIcon,
  files: FolderClockIcon,
  invoicing: ReceiptTextIcon,
};

/** The dashboard's header: title, notifications, the settings menu (its dialogs) and logout. */
export function AdminHeader({
  adminName,
  role,
  feed,
  onOpenDialog,
}: {
  adminName: string;
  role: Role;
  /** Null for an administrator held by the team's two-factor rule: logout only. */
  feed: NotificationFeed | null;
  onOpenDialog: (dialog: SettingsDialog) => void;
}) {
  const dialogs = feed
    ? (['coliship', 'payment', 'validation', 'email', 'files', 'invoicing'] as const).filter((dialog) =>
        can(role, SETTINGS_CAPABILITIES[dialog]),
      )
    : [];
  return (
    <div className="flex flex-wrap items-center gap-3">
      <div className="mr-auto flex min-w-0 flex-col">
        <h1 className="font-heading font-semibold text-2xl sm:text-3xl">Tableau de bord</h1>
        <p className="truncate text-muted-foreground text-sm">Administration · {adminName}</p>
      </div>
      <div className="flex items-center gap-2">
        {feed ? <NotificationsPopover feed={feed} /> : null}
        {dialogs.length > 0 ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="outline" size="icon" aria-label="Paramètres">
                <SettingsIcon aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end" className="w-60">
              <DropdownMenuLabel>Paramètres</DropdownMenuLabel>
              <DropdownMenuSeparator />
              {dialogs.map((dialog) => {
                const Icon = SETTINGS_ICONS[dialog];
                return (
                  <DropdownMenuItem key={dialog} onSelect={() => onOpenDialog(dialog)}>
                    <Icon aria-hidden="true" />
                    {SETTINGS_DIALOG_TITLES[dialog]}
                  </DropdownMenuItem>
                );
              })}
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null}
        <Form method="post" action="/logout">
          <Button type="submit" variant="outline">
            <LogOutIcon aria-hidden="true" />
            <span className="hidden sm:inline">Déconnexion</span>
            <span className="sr-only sm:hidden">Déconnexion</span>
          </Button>
        </Form>
      </div>
    </div>
  );
}
