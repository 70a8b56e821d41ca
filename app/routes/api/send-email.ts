import { handleSendEmailRequest } from '~/server/email/send-email-api.server';

// POST /api/send-email (JSON { to, subject, html } -> { message, id }), staff holding its line's capability (domain/staff/access-rules.ts).

export function loader() {
  return Response.json({ error: 'Méthode non autorisée' }, { status: 405, headers: { Allow: 'POST' } });
}

export async function action({ request }: { request: Request }) {
  return handleSendEmailRequest(request);
}
