import { Link } from 'react-router';
import { Button } from '~/components/ui/button';

/*
 * What every page of a family share says when the link no longer opens it (410) or this client
 * tried too many unknown links (429): the share's page and its copy page.
 */

export function ShareEnded() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Partage terminé</p>
      <h1 className="text-title">Ce partage a pris fin</h1>
      <p className="text-lg text-muted-foreground">
        La personne qui vous a envoyé ce lien l’a arrêté, ou sa durée est écoulée. Demandez-lui un nouveau lien si vous
        souhaitez revoir ces souvenirs.
      </p>
      <p className="text-muted-foreground">Vous avez vous aussi des photos, des films ou des cassettes à numériser ?</p>
      <Button asChild>
        <Link to="/configurateur">Faire numériser mes souvenirs</Link>
      </Button>
    </section>
  );
}

export function ShareLimited() {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Erreur 429</p>
      <h1 className="text-title">Trop de liens inconnus</h1>
      <p className="text-lg text-muted-foreground">
        Trop de liens de partage inconnus ont été ouverts depuis votre connexion. Veuillez patienter quelques minutes
        avant de réessayer.
      </p>
    </section>
  );
}
