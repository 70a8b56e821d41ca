import { formatDateFr, NBSP } from '~/domain/format';

/*
 * « Memories owned, not rented »: how long the delivered files stay online and what
 * happens after, said where the customer decides (the checkout) and where they look (the gallery).
 * The period is the back office's setting (retention-settings.server.ts), fixed on the order when
 * its files are published.
 */

/** The gallery: until when, then deletion, and the two ways to keep them. */
export function RetentionNotice({ expiresAt }: { expiresAt: Date | string }) {
  return (
    <p className="text-muted-foreground" data-testid="retention-notice">
      Conservés jusqu’au {formatDateFr(expiresAt)}
      {NBSP}; ensuite, ils sont supprimés de nos serveurs{NBSP}: téléchargez-les d’ici là ou commandez une copie sur clé
      USB.
    </p>
  );
}

/** The checkout: the period, counted from the delivery. */
export function RetentionPromise({ days }: { days: number }) {
  return (
    <section aria-labelledby="retention-promise" className="rounded-lg border border-border bg-card p-6 text-sm">
      <h2 id="retention-promise" className="mb-2 font-semibold text-base">
        Vos fichiers vous appartiennent
      </h2>
      <p className="text-muted-foreground" data-testid="retention-promise">
        Vos fichiers numériques restent disponibles en ligne pendant {days}
        {NBSP}jours après leur livraison, sans abonnement{NBSP}; ensuite, ils sont supprimés de nos serveurs. Nous vous
        prévenons par e-mail une semaine avant{NBSP}: téléchargez-les ou commandez une copie sur clé USB.
      </p>
    </section>
  );
}
