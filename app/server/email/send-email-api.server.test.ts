import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionUser } from '../auth/session.server';
import { db } from '../db/client.server';
import { handleSendEmailRequest } from './send-email-api.server';
import { clearOutbox, outboxRows } from './testing/fixtures';

const admin: SessionUser = {
  id: 'u-admin',
  email: 'admin@soovenirs.fr',
  role: 'admin',
  firstName: 'A',
  lastName: 'D',
  emailVerified: true,
  twoFactorEnabled: false,
};
const customer: SessionUser = { ...admin, id: 'u-customer', role: 'customer' };

function post(body: unknown, headers: Record<string, string> = {}) {
  return new Request('http://localhost/api/send-email', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const message = { to: 'client@exemple.fr', subject: 'Votre commande', html: '<p>Bonjour</p>' };

beforeEach(async () => {
  await clearOutbox();
  await db().execute(sql`delete from config_options`);
});

describe('POST /api/send-email', () => {
  it('refuses visitors (401) and customers (403): it is not an open relay', async () => {
    const anonymous = await handleSendEmailRequest(post(message), null);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'Non authentifié' });
    const forbidden = await handleSendEmailRequest(post(message), customer);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ error: 'Accès non autorisé' });
    expect(await outboxRows()).toEqual([]);
  });

  it('queues the message for an administrator and answers { message, id }', async () => {
    const response = await handleSendEmailRequest(post(message), admin);
    expect(response.status).toBe(202);
    const body = (await response.json()) as { message: string; id: string };
    expect(body.message).toBe("Email mis en file d'envoi");
    const rows = await outboxRows();
    expect(rows).toMatchObject([
      {
        id: body.id,
        to: 'client@exemple.fr',
        template: 'custom',
        data: { subject: message.subject, html: message.html },
      },
    ]);
  });

  it('queues one message per Idempotency-Key', async () => {
    const first = await handleSendEmailRequest(post(message, { 'Idempotency-Key': 'k1' }), admin);
    const second = await handleSendEmailRequest(post(message, { 'Idempotency-Key': 'k1' }), admin);
    expect(((await first.json()) as { id: string }).id).toBe(((await second.json()) as { id: string }).id);
    expect(await outboxRows()).toHaveLength(1);
  });

  it('validates the body', async () => {
    const invalid = await handleSendEmailRequest(post({ to: 'nope', subject: '', html: '' }), admin);
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: 'Requête invalide',
      fieldErrors: {
        to: ['Adresse email invalide'],
        subject: ['Le sujet est requis'],
        html: ['Le contenu est requis'],
      },
    });
    expect((await handleSendEmailRequest(post('{not json'), admin)).status).toBe(400);
    const form = new Request('http://localhost/api/send-email', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: JSON.stringify(message),
    });
    expect((await handleSendEmailRequest(form, admin)).status).toBe(415);
    const get = new Request('http://localhost/api/send-email');
    expect((await handleSendEmailRequest(get, admin)).status).toBe(405);
    expect(await outboxRows()).toEqual([]);
  });
});
