import { Button } from '~/components/ui/button';
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog';
import { company } from '~/domain/company';

export const TERMS_LAST_UPDATED = '14 mai 2025';

interface TermsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** "J'ai lu et j'accepte": ticks the registration form's box. */
  onAccept: () => void;
}

/**
 * The general terms of sale, as the registration form shows them (specification 000, section 2):
 * object, services, orders, prices and payment; last updated 14 May 2025. The full text lives on
 * /cgv; this is what a customer accepts when creating an account.
 */
export function TermsDialog({ open, onOpenChange, onAccept }: TermsDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Conditions générales de vente</DialogTitle>
          <DialogDescription>Dernière mise à jour : {TERMS_LAST_UPDATED}</DialogDescription>
        </DialogHeader>
        {/* A scrolling text: focusable so that the keyboard can scroll it too. */}
        <section
          aria-label="Texte des conditions générales de vente"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable from the keyboard
          tabIndex={0}
          className="flex max-h-[55dvh] flex-col gap-4 overflow-y-auto rounded-md pr-1 text-sm leading-relaxed"
        >
          <section aria-labelledby="cgv-objet" className="flex flex-col gap-1.5">
            <h3 id="cgv-objet" className="font-semibold text-base">
              1. Objet
            </h3>
            <p>
              Les présentes conditions générales de vente régissent les relations contractuelles entre{' '}
              {company.legalName}, société par actions simplifiée au capital de {company.capital}, immatriculée au{' '}
              {company.rcs} sous le numéro {company.siren}, dont le siège est situé {company.street},{' '}
              {company.postalCode} {company.city}, et toute personne passant commande sur le site Soovenirs.
            </p>
          </section>
          <section aria-labelledby="cgv-services" className="flex flex-col gap-1.5">
            <h3 id="cgv-services" className="font-semibold text-base">
              2. Services
            </h3>
            <p>
              Soovenirs numérise des supports analogiques (photos papier, diapositives, ektachromes, négatifs, plaques
              de verre, cassettes VHS, VHS-C et MiniDV, films Super 8 et 16 mm, documents et journaux), propose la
              restauration numérique des images et vend la boîte Soovenirs. Les fichiers numérisés sont livrés par
              téléchargement, sur clé USB ou sur disque, selon le choix fait à la commande.
            </p>
          </section>
          <section aria-labelledby="cgv-commandes" className="flex flex-col gap-1.5">
            <h3 id="cgv-commandes" className="font-semibold text-base">
              3. Commandes
            </h3>
            <p>
              La commande est passée en ligne à partir du configurateur. Elle est confirmée par email et suivie depuis
              l’espace client. Le client dispose d’un délai de rétractation de 14 jours à compter de la commande, qu’il
              peut exercer depuis son espace client (« Renoncer au contrat ici ») ; s’il a demandé que la prestation
              commence avant la fin de ce délai, le montant correspondant au service déjà fourni reste dû.
            </p>
          </section>
          <section aria-labelledby="cgv-prix" className="flex flex-col gap-1.5">
            <h3 id="cgv-prix" className="font-semibold text-base">
              4. Prix et paiement
            </h3>
            <p>
              Les prix sont indiqués en euros, toutes taxes comprises. Le paiement s’effectue par carte bancaire, par
              virement bancaire ou par chèque. Une facture est émise pour chaque commande et reste disponible dans
              l’espace client.
            </p>
          </section>
        </section>
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">Fermer</Button>
          </DialogClose>
          <Button onClick={onAccept}>J'ai lu et j'accepte</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
