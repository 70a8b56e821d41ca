import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db } from '../db/client.server';
import { DKIM_MESSAGES, getPublicDkim, loadDkim, removeDkim, saveDkim } from './dkim.server';
import { queueEmail } from './outbox.server';
import { configureSmtpFor, resetEmailState, TEST_BASE_URL, workerOptionsFor } from './testing/fixtures';
import { startTestSmtpServer, type TestSmtpServer } from './testing/smtp-test-server';
import { drainOutbox } from './worker.server';

/*
 * DKIM signing as a receiving mail server checks it: a key generated (or pasted) in the settings,
 * a message sent by the outbox worker through a real SMTP peer, and mailauth's verifier reading the
 * public key from the TXT record the settings page tells the operator to publish.
 */

process.env.BASE_URL = TEST_BASE_URL;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startTestSmtpServer({ mode: 'starttls' });
});
afterAll(async () => {
  await smtp.stop();
});
beforeEach(async () => {
  await resetEmailState(smtp);
});

/** A DNS that knows one TXT record, as the operator published it. */
function resolverFor(record: { name: string; value: string }) {
  return async (name: string, type: string) => {
    if (type === 'TXT' && name === record.name) return [[record.value]];
    throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
  };
}

async function sendOne(key: string) {
  await configureSmtpFor(smtp, 'starttls');
  await queueEmail({
    to: 'marie.curie@exemple.fr',
    template: 'order-status',
    data: { orderNumber: 'SV-2026-000042', status: 'shipped', customerName: 'Marie Curie' },
    dedupeKey: key,
  });
  expect(await drainOutbox(workerOptionsFor(smtp))).toMatchObject({ sent: 1 });
  const message = smtp.messages.at(-1);
  if (!message) throw new Error('no message received');
  return message;
}

describe('DKIM signing', () => {
  it('signs with a generated key, and the signature verifies against the published record', async () => {
    const saved = await saveDkim({ domain: 'Soovenirs.fr', selector: 'soovenirs2026' });
    if (!saved.ok) throw new Error(JSON.stringify(saved));
    expect(saved.dkim.record.name).toBe('soovenirs2026._domainkey.soovenirs.fr');
    expect(saved.dkim.record.value).toMatch(/^v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA[\w+/=]+$/);
    // Stored encrypted: the private key never appears in clear in the database.
    const stored = await db().execute<{ v: string }>(
      sql`select option_value as v from config_options where option_name = 'email_dkim'`,
    );
    expect(stored.rows[0]?.v).not.toContain('PRIVATE KEY');
    expect((await getPublicDkim())?.readable).toBe(true);

    const message = await sendOne('dkim:1');
    expect(message.raw).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=soovenirs\.fr;/m);
    const verified = await dkimVerify(message.raw, { resolver: resolverFor(saved.dkim.record) });
    expect(verified.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['pass']);

    // Another key published under that name: the same message fails, as a receiver would say.
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' });
    const forged = await dkimVerify(message.raw, {
      resolver: resolverFor({ ...saved.dkim.record, value: `v=DKIM1; k=rsa; p=${other.toString('base64')}` }),
    });
    expect(forged.results[0]?.status.result).toBe('fail');

    await removeDkim();
    expect(await loadDkim()).toBeNull();
    const unsigned = await sendOne('dkim:2');
    expect(unsigned.raw).not.toMatch(/^DKIM-Signature:/m);
  });

  it('takes a pasted key (PKCS#1 as providers give it) and refuses bad input in French', async () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs1', format: 'pem' })
      .toString();
    const pasted = await saveDkim({ domain: 'mail.soovenirs.fr', selector: 'mx1', privateKey: pem });
    if (!pasted.ok) throw new Error(JSON.stringify(pasted));
    const message = await sendOne('dkim:3');
    const verified = await dkimVerify(message.raw, { resolver: resolverFor(pasted.dkim.record) });
    expect(verified.results[0]?.status.result).toBe('pass');

    const bad = await saveDkim({ domain: 'https://soovenirs', selector: 'mauvais sélecteur', privateKey: 'bonjour' });
    expect(bad).toEqual({
      ok: false,
      fieldErrors: {
        domain: DKIM_MESSAGES.domain,
        selector: DKIM_MESSAGES.selector,
        privateKey: DKIM_MESSAGES.keyInvalid,
      },
    });
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' });
    expect(await saveDkim({ domain: 'soovenirs.fr', selector: 'a', privateKey: ec.toString() })).toMatchObject({
      ok: false,
      fieldErrors: { privateKey: DKIM_MESSAGES.keyNotRsa },
    });
    const small = generateKeyPairSync('rsa', { modulusLength: 512 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(await saveDkim({ domain: 'soovenirs.fr', selector: 'a', privateKey: small.toString() })).toMatchObject({
      ok: false,
      fieldErrors: { privateKey: DKIM_MESSAGES.keyTooShort(512) },
    });
    // The key saved before is kept.
    expect((await getPublicDkim())?.selector).toBe('mx1');
  });
});
