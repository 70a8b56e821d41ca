import { useEffect } from 'react';
import { Link, useNavigate } from 'react-router';
import { Spinner } from '~/components/ui/spinner';
import { isDocumentPath } from '~/domain/account/redirects';
import { AuthPage } from './auth-page';
import { AUTH_CHECKING } from './submit-button';
import { type ServerToast, ServerToastFallback, useServerToast } from './toast-messages';

interface SignedInProps {
  destination: string;
  toast: ServerToast;
  /** Waits 1 s after a magic link, 500 ms after other sign-ins, before redirecting. */
  delayMs: number;
}

/**
 * The moment between "signed in" and the destination: the success toast, the address cleaned of
 * the link's parameters, then the redirect by role. Without JavaScript a link leads on.
 */
export function SignedIn({ destination, toast, delayMs }: SignedInProps) {
  const navigate = useNavigate();
  useServerToast(toast);
  useEffect(() => {
    // The link's parameters (type, error...) leave the address bar, without a new history entry.
    if (window.location.search) window.history.replaceState(window.history.state, '', window.location.pathname);
    // A document (a PDF, the ZIP) is loaded by the browser, not rendered by the app.
    const go = isDocumentPath(destination)
      ? () => window.location.replace(destination)
      : () => navigate(destination, { replace: true });
    const timer = window.setTimeout(go, delayMs);
    return () => window.clearTimeout(timer);
  }, [destination, delayMs, navigate]);
  return (
    <AuthPage title="Connexion">
      <ServerToastFallback value={toast} />
      <div className="flex flex-col items-center gap-4 py-4 text-center">
        <Spinner label={AUTH_CHECKING} showLabel />
        <Link
          to={destination}
          replace
          reloadDocument={isDocumentPath(destination)}
          className="font-medium text-primary text-sm underline-offset-4 hover:underline"
        >
          Continuer
        </Link>
      </div>
    </AuthPage>
  );
}
