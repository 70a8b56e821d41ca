import { Form } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { Button } from '~/components/ui/button';

/*
 * The back office's banner while outgoing e-mail is held on a restored or copied database
 * (app/server/email/mail-hold.server.ts): every tab says so; who holds the settings right releases
 * it, sending everything or setting aside what came with the copy. A plain form: it works before
 * the page's JavaScript has loaded.
 */

export interface MailHoldView {
  reason: 'restore' | 'copy';
  since: string;
  source: string;
  waiting: number;
}

const dateFormat = new Intl.DateTimeFormat('fr-FR', {
  dateStyle: 'long',
  timeStyle: 'short',
  timeZone: 'Europe/Paris',
});

export function MailHoldBanner({ hold, canRelease }: { hold: MailHoldView; canRelease: boolean }) {
  const since = dateFormat.format(new Date(hold.since));
  const origin =
    hold.reason === 'restore'
      ? `Cette boutique tourne sur une copie restaurée (le ${since}, depuis ${hold.source}).`
      : `Cette base de données a déjà tourné ailleurs (${hold.source})\u00a0: c’est sans doute une copie.`;
  return (
    <Alert
      variant="warning"
      title="E-mails sortants retenus : aucun e-mail n’est envoyé aux clients."
      data-testid="mail-hold-banner"
      action={
        canRelease ? (
          <Form method="post" action="/admin/api/emails" className="flex flex-wrap gap-2">
            <input type="hidden" name="intent" value="release" />
            <Button type="submit" name="choice" value="send" size="sm">
              Tout envoyer
            </Button>
            <Button type="submit" name="choice" value="discard-copied" size="sm" variant="outline">
              Écarter ceux de la sauvegarde et reprendre
            </Button>
          </Form>
        ) : null
      }
    >
      <p>
        {origin} {hold.waiting} e-mail(s) en attente.{' '}
        {canRelease
          ? 'Libérez-les une fois la copie vérifiée.'
          : 'Un administrateur peut les libérer une fois la copie vérifiée.'}
      </p>
    </Alert>
  );
}
