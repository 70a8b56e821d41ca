import { handleAuthRequest } from '~/server/auth/auth.server';
import type { Route } from './+types/auth';

// Better Auth's endpoints under /api/auth/* (sign-in, sign-up, sessions, password reset, magic
// link, admin). Its errors come back with French messages (auth.server.ts).

export function loader({ request }: Route.LoaderArgs) {
  return handleAuthRequest(request);
}

export function action({ request }: Route.ActionArgs) {
  return handleAuthRequest(request);
}
