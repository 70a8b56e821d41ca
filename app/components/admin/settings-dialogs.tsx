import { cn } from '~/components/ui/cn';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '~/components/ui/dialog';
import { SETTINGS_DIALOG_TITLES, type SettingsDialog } from './admin-header';
import { ColishipPanel } from './coliship-form';
import { EmailConfigPanel } from './email-config-dialog';
import { FilesConfigPanel } from './files-config-form';
import { InvoicingSettingsPanel } from './invoicing-settings-form';
import { PaymentConfigPanel } from './payment-config-form';
import { PaymentValidation } from './payment-validation';
import { TrackingKeyPanel } from './tracking-key-form';

const DESCRIPTIONS: Record<SettingsDialog, string> = {
  coliship: 'Identifiants du service d’étiquettes Colissimo (Coliship) et clé du suivi des colis.',
  payment: 'Solution de paiement en ligne et ses clés, enregistrées chiffrées.',
  validation: 'Paiements en attente : validez-les (facture émise, client prévenu) ou rejetez-les.',
  email: 'Serveur d’envoi des emails aux clients, email de test et boîte d’envoi.',
  files: 'Combien de temps les fichiers livrés restent en ligne pour les clients.',
  invoicing: 'TVA sur les débits et conditions de paiement des factures aux professionnels.',
};

/** The dialogs of the settings menu (Radix dialogs; their content loads when they open). */
export function SettingsDialogs({
  open,
  onOpenChange,
}: {
  open: SettingsDialog | null;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open !== null} onOpenChange={onOpenChange}>
      {open ? (
        <DialogContent
          className={cn(
            'grid-cols-[minmax(0,1fr)]',
            open === 'validation' ? 'max-w-4xl' : open === 'email' ? 'max-w-3xl' : 'max-w-2xl',
          )}
        >
          <DialogHeader>
            <DialogTitle>{SETTINGS_DIALOG_TITLES[open]}</DialogTitle>
            <DialogDescription>{DESCRIPTIONS[open]}</DialogDescription>
          </DialogHeader>
          {open === 'coliship' ? <ColishipPanel /> : null}
          {open === 'coliship' ? <TrackingKeyPanel /> : null}
          {open === 'payment' ? <PaymentConfigPanel idPrefix="dialogue-paiement" /> : null}
          {open === 'validation' ? <PaymentValidation /> : null}
          {open === 'email' ? <EmailConfigPanel /> : null}
          {open === 'files' ? <FilesConfigPanel /> : null}
          {open === 'invoicing' ? <InvoicingSettingsPanel /> : null}
        </DialogContent>
      ) : null}
    </Dialog>
  );
}
