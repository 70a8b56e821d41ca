import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { company } from '~/domain/company';
import { contactMessageSchema } from '~/domain/content/contact-form';
import { db } from '../db/client.server';
import { InvalidEmailDataError, renderEmail } from '../email/templates/registry';
import { shopContactAddress, submitContactMessage } from './contact.server';

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return (await db().execute(query)).rows as T[];
}

describe('a contact message', () => {
  it('is stored, e-mailed to the shop, acknowledged to the sender and notified, together', async () => {
    const input = contactMessageSchema.parse({
      name: 'Jeanne Martin',
      email: 'jeanne.martin@example.fr',
      phone: '06 12 34 56 78',
      subject: 'Numériser 40 cassettes',
      message: 'Bonjour,\nj’ai 40 cassettes VHS de mariage.',
      service: 'vhs',
      pro: 'on',
    });
    const stored = await submitContactMessage(input);

    const [message] = await rows<Record<string, unknown>>(sql`select * from contact_messages where id = ${stored.id}`);
    expect(message).toMatchObject({
      name: 'Jeanne Martin',
      email: 'jeanne.martin@example.fr',
      phone: '06 12 34 56 78',
      subject: 'Numériser 40 cassettes',
      service: 'vhs',
      is_pro: true,
      handled_at: null,
    });

    const emails = await rows<{
      to: string;
      template: string;
      dedupe_key: string;
      status: string;
      data: Record<string, unknown>;
    }>(
      sql`select "to", template, dedupe_key, status, data from email_outbox where dedupe_key like ${`contact:${stored.id}:%`} order by template desc`,
    );
    expect(emails.map((e) => [e.to, e.template, e.dedupe_key])).toEqual([
      [company.email, 'contact-to-shop', `contact:${stored.id}:shop`],
      ['jeanne.martin@example.fr', 'contact-acknowledgement', `contact:${stored.id}:acknowledgement`],
    ]);
    expect(shopContactAddress()).toBe(company.email);
    // No SMTP configured in this database: the messages wait, held, until it is.
    expect(emails.every((e) => e.status === 'held')).toBe(true);
    expect(emails[0]?.data).toMatchObject({ isPro: true, service: 'vhs', email: 'jeanne.martin@example.fr' });
    // The shop's copy keeps the visitor's text; the acknowledgement, sent to any address typed in
    // the form, repeats none of it (else the form relays phishing from the shop's own server).
    const toShop = await renderEmail('contact-to-shop', emails[0]?.data);
    expect(toShop.text).toContain('j’ai 40 cassettes VHS de mariage.');
    expect(emails[1]?.data).toEqual({});
    const acknowledgement = await renderEmail('contact-acknowledgement', emails[1]?.data);
    expect(acknowledgement.subject).toBe('Nous avons bien reçu votre message');
    expect(acknowledgement.text).toContain('Nous avons bien reçu votre message.');
    for (const typed of ['Jeanne', 'Martin', 'Numériser', 'cassettes VHS de mariage']) {
      expect(`${acknowledgement.subject}\n${acknowledgement.html}\n${acknowledgement.text}`).not.toContain(typed);
    }
    // A row queued before this change still held the visitor's words: they are not sent either.
    const older = await renderEmail('contact-acknowledgement', {
      name: 'Votre banque',
      subject: 'Compte bloqué',
      message: 'Confirmez vos codes sur https://banque.example',
    });
    expect(older.html).not.toMatch(/banque|bloqué/i);

    const notes = await rows<{ kind: string; title: string; body: string }>(
      sql`select kind, title, body from notifications where contact_message_id = ${stored.id}`,
    );
    expect(notes).toEqual([
      {
        kind: 'contact',
        title: 'Demande professionnelle de Jeanne Martin',
        body: 'Numériser 40 cassettes · Cassettes VHS',
      },
    ]);
  });

  it('leaves nothing behind when one of its parts fails', async () => {
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from contact_messages`);
    const input = {
      ...contactMessageSchema.parse({ name: 'X', email: 'x@example.fr', subject: 'S', message: 'M' }),
      email: 'pas-une-adresse',
    };
    // The shop's e-mail refuses the address after the message row was written: both are rolled back.
    await expect(submitContactMessage(input)).rejects.toBeInstanceOf(InvalidEmailDataError);
    const after = await rows<{ n: number }>(sql`select count(*)::int as n from contact_messages`);
    expect(after[0]?.n).toBe(before[0]?.n);
    const orphans = await rows<{ n: number }>(
      sql`select count(*)::int as n from notifications where kind = 'contact' and contact_message_id is null`,
    );
    expect(orphans[0]?.n).toBe(0);
  });
});
