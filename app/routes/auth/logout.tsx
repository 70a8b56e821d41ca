import { redirect } from 'react-router';
import { callAuth, cookieHeaders, expiredSessionCookies } from '~/server/account/auth-calls.server';
import { flashCookie } from '~/server/account/cookies.server';
import { log } from '~/server/log.server';
import type { Route } from './+types/logout';

/*
 * POST /logout: ends the session with Better Auth, and in any case makes the browser forget it
 * (logout clears the user whether or not the server call succeeds).
 * The sign-in page then says "Déconnexion réussie". No state change on GET: /logout typed in the
 * address bar only leads home.
 */

export function loader() {
  return redirect('/');
}

export async function action({ request }: Route.ActionArgs) {
  const result = await callAuth(request, '/sign-out', {});
  if (!result.ok)
    log.warn({ status: result.status, code: result.code }, 'sign-out failed; session cookies cleared anyway');
  throw redirect('/login', {
    headers: cookieHeaders(
      result.ok ? result.setCookies : [],
      await expiredSessionCookies(),
      flashCookie('signed-out', '/login'),
    ),
  });
}
