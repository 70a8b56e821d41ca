import { HomeIcon, LogOutIcon, ShieldAlertIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Form, Link, useNavigate } from 'react-router';
import { Button } from '~/components/ui/button';
import { toast } from '~/components/ui/toaster';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';

/**
 * Unauthenticated or forbidden (specification 001, section 6): a toast with the specification's
 * message, then the sign-in page or the home page. Without JavaScript the page says the same and
 * offers the link.
 */
export function AccessRedirect({
  access,
  message,
  redirectTo,
}: {
  access: 'unauthenticated' | 'forbidden';
  message: string;
  redirectTo: string;
}) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    toast.error(message, { id: `admin-access-${access}` });
    navigate(redirectTo, { replace: true });
  }, [access, message, navigate, redirectTo]);
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-1 flex-col items-start justify-center gap-4 px-4 py-16 sm:px-6">
      <p className="font-semibold text-sepia text-sm uppercase tracking-wider">Administration</p>
      <h1 className="text-title">{message}</h1>
      <Button asChild>
        {access === 'unauthenticated' ? (
          <Link to={redirectTo}>Se connecter</Link>
        ) : (
          <Link to="/">Retour à l’accueil</Link>
        )}
      </Button>
    </section>
  );
}

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
