import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { log } from '../log.server';
import { loadEmailConfig } from './email-config.server';
import { renderEmail } from './templates/registry';
import { configureSmtpFor, TEST_BASE_URL } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { sendOverSmtp } from './transport.server';

/*
 * The e-mails' form, through a real SMTP peer: every e-mail readable on a phone (viewport), marked
 * `Auto-Submitted: auto-generated` unless a person wrote it, and free text keeping its line breaks
 * in the text part. The withdrawal acknowledgement says what applies to this order.
 */

process.env.BASE_URL = TEST_BASE_URL;
log.level = 'silent';

let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
  await configureSmtpFor(smtp, 'starttls');
});
afterAll(() => smtp.stop());
beforeEach(() => {
  smtp.messages.length = 0;
});

async function send(template: string, data: unknown) {
  const rendered = await renderEmail(template, data);
  await sendOverSmtp(
    await loadEmailConfig(),
    { ...rendered, to: 'jeanne@example.fr', messageKey: crypto.randomUUID() },
    { port: smtp.port, tls: { ca: smtp.cert }, timeoutMs: 3_000 },
  );
  const message = smtp.messages.at(-1);
  if (!message) throw new Error('nothing received');
  return message;
}

const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ').replace(/\r\n/g, '\n');
const MESSAGE = 'Bonjour,\nvoici mes trois bobines :\n- mariage 1982\n- vacances 1985\n\nMerci !';

describe('the e-mails as received', () => {
  it('carry a viewport, say they are automatic, and keep the line breaks of a visitor’s message', async () => {
    const message = await send('contact-to-shop', {
      name: 'Jeanne Martin',
      email: 'jeanne@example.fr',
      subject: 'Mes bobines',
      message: MESSAGE,
      receivedAt: new Date().toISOString(),
    });
    expect(message.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1"');
    expect(message.headers.get('auto-submitted')).toBe('auto-generated');
    const text = plain(message.text);
    expect(text).toContain('Bonjour,\nvoici mes trois bobines :\n- mariage 1982\n- vacances 1985');
  });

  it('send « Contacter le client » as a person’s message, without Auto-Submitted, its lines kept', async () => {
    const message = await send('order-message', {
      orderNumber: 'SV-2026-000123',
      subject: 'Vos bobines',
      message: 'Bonjour,\nune bobine est abîmée.\nNous vous appelons demain.',
      orderUrl: '/confirmation?orderId=0f8fad5b-d9cb-469f-a165-70867728950e',
      signature: 'Camille',
    });
    expect(message.headers.has('auto-submitted')).toBe(false);
    expect(message.html).toContain('name="viewport"');
    expect(plain(message.text)).toContain('Bonjour,\nune bobine est abîmée.\nNous vous appelons demain.');
  });
});

describe('the withdrawal acknowledgement', () => {
  const base = { orderNumber: 'SV-2026-000124', requestedAt: new Date().toISOString(), customerName: 'Jeanne' };

  it('tells an unpaid order nothing is refunded nor asked', async () => {
    const text = plain(
      (await send('withdrawal-acknowledgement', { ...base, withdrawalCase: 'unpaid', originals: 'not_sent' })).text,
    );
    expect(text).toContain('Votre commande n’avait pas été réglée : elle est annulée et rien ne vous sera demandé.');
    expect(text).not.toContain('rembourserons');
    expect(text).toContain('Vos originaux ne nous sont pas parvenus : ne nous les envoyez pas.');
  });

  it('promises a paid order not started its full refund, amount included', async () => {
    const text = plain(
      (
        await send('withdrawal-acknowledgement', {
          ...base,
          withdrawalCase: 'paid_not_started',
          originals: 'not_sent',
          refundCents: 9490,
        })
      ).text,
    );
    expect(text).toContain('nous vous remboursons la totalité des sommes versées (94,90 €)');
  });

  it('tells a started order the amount of the service provided stays due, and its originals come back', async () => {
    const text = plain(
      (await send('withdrawal-acknowledgement', { ...base, withdrawalCase: 'started', originals: 'at_workshop' })).text,
    );
    expect(text).toContain('le montant correspondant au service déjà fourni, qui reste dû');
    expect(text).toContain(
      'Vos originaux sont à l’atelier : nous les gardons en lieu sûr jusqu’à leur renvoi chez vous.',
    );
    expect(text).not.toContain('totalité');
  });
});
