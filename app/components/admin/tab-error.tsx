import { isRouteErrorResponse } from 'react-router';
import { Alert } from '~/components/ui/alert';
import { AccessDenied, AccessRedirect } from './access-state';

function refusal(
  error: unknown,
): { access: 'unauthenticated' | 'forbidden'; message: string; redirectTo: string } | null {
  if (!isRouteErrorResponse(error)) return null;
  const value = error.data as { access?: unknown; message?: unknown; redirectTo?: unknown } | null;
  if (
    value &&
    (value.access === 'unauthenticated' || value.access === 'forbidden') &&
    typeof value.message === 'string'
  ) {
    return {
      access: value.access,
      message: value.message,
      redirectTo: typeof value.redirectTo === 'string' ? value.redirectTo : '/',
    };
  }
  return null;
}

/**
 * A tab's error: the session ended while working (toast and sign-in page, as on arrival), the role
 * does not open this tab (« Accès non autorisé » in place), or the tab failed to load (the rest of the dashboard stays usable).
 */
export function TabError({ error }: { error: unknown }) {
  if (isRouteErrorResponse(error) && (error.data as { access?: unknown } | null)?.access === 'denied') {
    return <AccessDenied headingLevel={2} />;
  }
  const refused = refusal(error);
  if (refused) return <AccessRedirect {...refused} />;
  return (
    <Alert variant="danger" titleAs="h2" title="Cet onglet n’a pas pu être chargé">
      <p>Une erreur est survenue. Rechargez la page pour réessayer.</p>
    </Alert>
  );
}
