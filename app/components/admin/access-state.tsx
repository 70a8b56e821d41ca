import { ShieldAlertIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '~/components/ui/button';
import { toast } from '~/components/ui/toaster';
import { ACCESS_MESSAGES } from '~/domain/admin/messages';

/**
 * Unauthenticated or forbidden: a toast with its
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

/**
 * A staff member whose role does not open this page (docs/decisions/016): said in place, with the
 * way back to the dashboard (the server answered 403). `headingLevel` 2 inside a tab.
 */
export function AccessDenied({ headingLevel = 1 }: { headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section className="flex flex-col items-start gap-4 py-10">
      <p className="flex items-center gap-2 font-semibold text-destructive text-sm uppercase tracking-wider">
        <ShieldAlertIcon className="size-4" aria-hidden="true" />
        Administration
      </p>
      <Heading className="text-title">{ACCESS_MESSAGES.forbidden}</Heading>
      <p className="text-lg text-muted-foreground">{ACCESS_MESSAGES.deniedDetail}</p>
      <Button asChild>
        <Link to="/admin">Retour au tableau de bord</Link>
      </Button>
    </section>
  );
}
