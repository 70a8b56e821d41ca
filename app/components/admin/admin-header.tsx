import {
  CreditCardIcon,
  FolderClockIcon,
  ListChecksIcon,
  LogOutIcon,
  MailIcon,
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
import type { NotificationFeed } from '~/domain/admin/notifications';
import { NotificationsPopover } from './notifications-popover';

export type SettingsDialog = 'coliship' | 'payment' | 'validation' | 'email' | 'files';

export const SETTINGS_DIALOG_TITLES: Readonly<Record<SettingsDialog, string>> = {
  coliship: 'Configuration Coliship',
  payment: 'Configuration Paiement',
  validation: 'Validation Paiements',
  email: 'Configuration Email',
  files: 'Fichiers livrés',
};

const SETTINGS_ICONS = {
  coliship: TruckIcon,
  payment: CreditCardIcon,
  validation: ListChecksIcon,
  email: MailIcon,
  files: FolderClockIcon,
};

/** The dashboard's header: title, notifications, the settings menu (its dialogs) and logout. */
export function AdminHeader({
  adminName,
  feed,
  onOpenDialog,
}: {
  adminName: string;
  feed: NotificationFeed;
  onOpenDialog: (dialog: SettingsDialog) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <div className="mr-auto flex min-w-0 flex-col">
        <h1 className="font-heading font-semibold text-2xl sm:text-3xl">Tableau de bord</h1>
        <p className="truncate text-muted-foreground text-sm">Administration · {adminName}</p>
      </div>
      <div className="flex items-center gap-2">
        <NotificationsPopover feed={feed} />
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="icon" aria-label="Paramètres">
              <SettingsIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-60">
            <DropdownMenuLabel>Paramètres</DropdownMenuLabel>
            <DropdownMenuSeparator />
            {(['coliship', 'payment', 'validation', 'email', 'files'] as const).map((dialog) => {
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
