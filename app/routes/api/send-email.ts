import { getUser } from '~/server/auth/session.server';
import { handleSendEmailRequest } from '~/server/email/send-email-api.server';

// POST /api/send-email (JSON { to, subject, html } -> { message, id }), administrators only.

export function loader() {
  return Response.json({ error: 'Méthode non autorisée' }, { status: 405, headers: { Allow: 'POST' } });
}

export async function action({ request }: { request: Request }) {
  return handleSendEmailRequest(request, await getUser(request));
}
