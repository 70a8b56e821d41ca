import { HomeIcon, LogOutIcon, ShieldAlertIcon } from 'lucide-react';
import { Form, Link } from 'react-router';
import { Button } from '~/components/ui/button';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';

/*
 * Its own module, light (no toaster): the root's error boundary shows it for a back-office page
 * whose session could not be read (the database down), in every page's bundle.
 */

/** The error state: the access could not be checked (or the page failed); logout and home buttons. */
export function AccessError({ detail }: { detail?: string }) {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-5 px-4 py-16 sm:px-6">
      <p className="flex items-center gap-2 font-semibold text-destructive text-sm uppercase tracking-wider">
        <ShieldAlertIcon className="size-4" aria-hidden="true" />
        Administration
      </p>
      <h1 className="text-title">{ACCESS_MESSAGES.genericError}</h1>
      {detail ? <p className="text-lg text-muted-foreground">{detail}</p> : null}
      <div className="flex flex-wrap gap-3">
        <Form method="post" action="/logout">
          <Button type="submit" variant="outline">
            <LogOutIcon aria-hidden="true" />
            Se déconnecter
          </Button>
        </Form>
        <Button asChild>
          <Link to="/">
            <HomeIcon aria-hidden="true" />
            Retour à l’accueil
          </Link>
        </Button>
      </div>
    </section>
  );
}
