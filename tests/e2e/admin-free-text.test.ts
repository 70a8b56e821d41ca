import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, randomIp, type TestUser } from '../support/auth';
import { insertTestOrder } from '../support/orders';
import { startServer, type TestServer } from '../support/server';

/*
 * The back office's free-text forms over HTTP, as an administrator's browser (or a forger with
 * an administrator's session) posts them: a NUL character gets the form's French message, never a
 * 500; the stored SMTP password is never sent to a server other than the saved one.
 */

const FORBIDDEN = 'Ce champ contient un caractère non autorisé.';

describe('free text in the back office', () => {
  let server: TestServer;
  let admin: TestUser;

  async function query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: server.databaseUrl });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  function post(path: string, body: Record<string, string>) {
    return fetch(`${server.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        origin: server.url,
        cookie: admin.cookie,
        'x-forwarded-for': randomIp(),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(body),
    });
  }

  beforeAll(async () => {
    server = await startServer();
    admin = await createUser({ url: server.url, databaseUrl: server.databaseUrl, role: 'admin' });
  });

  afterAll(async () => {
    await server?.dispose();
  });

  it('answers a note with a NUL character with the French message, and stores nothing', async () => {
    const order = await insertTestOrder(server.databaseUrl);
    const response = await post('/admin?index', { intent: 'note', orderId: order.id, text: 'Rappel\u0000client' });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(FORBIDDEN);
    expect(await query(`select 1 from order_events where order_id = $1 and kind = 'note'`, [order.id])).toEqual([]);

    const saved = await post('/admin?index', { intent: 'note', orderId: order.id, text: 'Bobines reçues.' });
    expect(saved.status).toBe(200);
    expect(
      await query(`select data->>'text' as text from order_events where order_id = $1 and kind = 'note'`, [order.id]),
    ).toEqual([{ text: 'Bobines reçues.' }]);
  });

  const smtp = {
    enabled: 'on',
    senderEmail: 'no-reply@soovenirs.fr',
    senderName: 'Soovenirs',
    smtpHost: 'smtp.soovenirs.test',
    smtpPort: '587',
    smtpUsername: 'no-reply@soovenirs.fr',
  };

  it('answers NUL in the e-mail settings with the French message', async () => {
    const response = await post('/admin/api/configuration-email', {
      intent: 'save',
      ...smtp,
      senderName: 'Soo\u0000venirs',
      smtpPassword: 'secret',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(FORBIDDEN);
  });

  it('does not send the stored SMTP password to another host typed in the test form', async () => {
    const saved = await post('/admin/api/configuration-email', { intent: 'save', ...smtp, smtpPassword: 'secret' });
    expect(saved.status).toBe(200);
    const response = await post('/admin/api/configuration-email', {
      intent: 'test',
      to: 'admin@soovenirs.fr',
      ...smtp,
      smtpHost: 'collecte.attaquant.example',
      smtpPassword: '',
    });
    expect(response.status).toBe(200);
    const body = await response.text();
    expect(body).toContain('Saisissez à nouveau le mot de passe SMTP');
    // Refused before any connection: no test e-mail was even attempted.
    expect(await query(`select 1 from email_outbox where template = 'test-email'`)).toEqual([]);
  });
});
