import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ROUTE_ACCESS } from '~/domain/staff/access-rules';
import { decideRequest, SessionUncheckable } from '../access/door.server';
import { recordStaffAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { queueEmail } from './outbox.server';

/*
 * The send-email call (to, subject, html -> message, id), for the
 * staff its line of domain/staff/access-rules.ts names (the door decides): open to anyone it would
 * relay spam under the shop's name. The message goes through the outbox like every other and is
 * journaled; `id` is the outbox row's id. An `Idempotency-Key` header makes a retried request
 * queue one message.
 */

export const sendEmailRequestSchema = z.object({
  to: z.email({ error: 'Adresse email invalide' }),
  subject: z
    .string({ error: 'Le sujet est requis' })
    .trim()
    .min(1, { error: 'Le sujet est requis' })
    .max(998, { error: 'Le sujet est trop long' }),
  html: z
    .string({ error: 'Le contenu est requis' })
    .min(1, { error: 'Le contenu est requis' })
    .max(1_000_000, { error: 'Le contenu est trop long' }),
});

export const SEND_EMAIL_MESSAGES = {
  queued: "Email mis en file d'envoi",
  unauthenticated: 'Non authentifié',
  sessionUnchecked: 'Impossible de vérifier vos permissions. Veuillez réessayer.',
  forbidden: 'Accès non autorisé',
  invalid: 'Requête invalide',
  unsupportedType: 'Le corps de la requête doit être du JSON (Content-Type: application/json)',
  methodNotAllowed: 'Méthode non autorisée',
  failed: "L'email n'a pas pu être mis en file d'envoi",
} as const;

function json(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store', ...headers } });
}

export async function handleSendEmailRequest(request: Request): Promise<Response> {
  if (request.method !== 'POST') return json({ error: SEND_EMAIL_MESSAGES.methodNotAllowed }, 405, { Allow: 'POST' });
  let door: Awaited<ReturnType<typeof decideRequest>>;
  try {
    door = await decideRequest(request.headers, ROUTE_ACCESS['routes/api/send-email'].write);
  } catch (error) {
    if (error instanceof SessionUncheckable) return json({ error: SEND_EMAIL_MESSAGES.sessionUnchecked }, 503);
    throw error;
  }
  const user = door.asker.user;
  if (!user) return json({ error: SEND_EMAIL_MESSAGES.unauthenticated }, 401);
  if (!door.decision.allow) return json({ error: SEND_EMAIL_MESSAGES.forbidden }, 403);
  // A browser cannot send JSON to another site without a CORS preflight: one more guard against CSRF.
  if (!/^application\/json\b/i.test(request.headers.get('content-type') ?? '')) {
    return json({ error: SEND_EMAIL_MESSAGES.unsupportedType }, 415);
  }

  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return json({ error: SEND_EMAIL_MESSAGES.invalid }, 400);
  }
  const parsed = sendEmailRequestSchema.safeParse(body);
  if (!parsed.success) {
    return json({ error: SEND_EMAIL_MESSAGES.invalid, fieldErrors: z.flattenError(parsed.error).fieldErrors }, 400);
  }

  const idempotencyKey = request.headers.get('idempotency-key')?.trim();
  const dedupeKey = idempotencyKey
    ? `send-email:${user.id}:${createHash('sha256').update(idempotencyKey).digest('base64url')}`
    : `send-email:${randomUUID()}`;
  try {
    const { to, subject, html } = parsed.data;
    const queued = await queueEmail({ to, template: 'custom', data: { subject, html }, dedupeKey });
    if (queued.created) {
      await recordStaffAudit(db(), {
        actor: user.id,
        kind: 'email.send',
        subject: queued.id,
        subjectLabel: to,
        after: { recipient: to, subject },
      });
    }
    log.info({ outboxId: queued.id, by: user.id, created: queued.created }, 'send-email: message queued');
    return json({ message: SEND_EMAIL_MESSAGES.queued, id: queued.id }, 202);
  } catch (error) {
    log.error({ err: error }, 'send-email: the message could not be queued');
    return json({ error: SEND_EMAIL_MESSAGES.failed }, 500);
  }
}
