import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '~/domain/account/session-user';
import { registeredAccount, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { handleSendEmailRequest } from './send-email-api.server';
import { clearOutbox, outboxRows } from './testing/fixtures';

process.env.BASE_URL = TEST_BASE;

let admin: string;
let atelier: string;
let customer: string;

beforeAll(async () => {
  const accounts = await Promise.all(['admin', 'atelier', 'customer'].map((role) => registeredAccount(role as Role)));
  [admin, atelier, customer] = accounts.map((account) => account.cookie) as [string, string, string];
});

function post(body: unknown, cookie: string | null, headers: Record<string, string> = {}) {
  return new Request('http://localhost/api/send-email', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { cookie } : {}), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const message = { to: 'client@exemple.fr', subject: 'Votre commande', html: '<p>Bonjour</p>' };

beforeEach(async () => {
  await clearOutbox();
  await db().execute(sql`delete from config_options`);
});

describe('POST /api/send-email', () => {
  it('refuses visitors (401), customers and staff without the settings (403): it is not an open relay', async () => {
    const anonymous = await handleSendEmailRequest(post(message, null));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ error: 'Non authentifié' });
    for (const cookie of [customer, atelier]) {
      const forbidden = await handleSendEmailRequest(post(message, cookie));
      expect(forbidden.status).toBe(403);
      expect(await forbidden.json()).toEqual({ error: 'Accès non autorisé' });
    }
    expect(await outboxRows()).toEqual([]);
  });

  it('queues the message for an administrator, answers { message, id } and journals it', async () => {
    const response = await handleSendEmailRequest(post(message, admin));
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
    const journal = await db().execute<{ kind: string; subject: string; after: unknown }>(
      sql`select kind, subject, after from audit_log where kind = 'email.send'`,
    );
    expect(journal.rows).toEqual([
      { kind: 'email.send', subject: body.id, after: { recipient: message.to, subject: message.subject } },
    ]);
  });

  it('queues one message per Idempotency-Key', async () => {
    const first = await handleSendEmailRequest(post(message, admin, { 'Idempotency-Key': 'k1' }));
    const second = await handleSendEmailRequest(post(message, admin, { 'Idempotency-Key': 'k1' }));
    expect(((await first.json()) as { id: string }).id).toBe(((await second.json()) as { id: string }).id);
    expect(await outboxRows()).toHaveLength(1);
  });

  it('validates the body', async () => {
    const invalid = await handleSendEmailRequest(post({ to: 'nope', subject: '', html: '' }, admin));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({
      error: 'Requête invalide',
      fieldErrors: {
        to: ['Adresse email invalide'],
        subject: ['Le sujet est requis'],
        html: ['Le contenu est requis'],
      },
    });
    expect((await handleSendEmailRequest(post('{not json', admin))).status).toBe(400);
    const form = new Request('http://localhost/api/send-email', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', cookie: admin },
      body: JSON.stringify(message),
    });
    expect((await handleSendEmailRequest(form)).status).toBe(415);
    const get = new Request('http://localhost/api/send-email', { headers: { cookie: admin } });
    expect((await handleSendEmailRequest(get)).status).toBe(405);
    expect(await outboxRows()).toEqual([]);
  });
});
