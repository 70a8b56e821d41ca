import { expect, inject } from 'vitest';
import { addSessionCookie, createUser, randomIp, uniqueEmail } from '../support/auth';
import { openPage } from '../support/browser';
import { createTestDatabase, dropTestDatabase, withClient } from '../support/databases';
import { runJournalVerify } from '../support/journal-verify';
import { insertTestOrder, type TestOrder } from '../support/orders';
import { payBySandboxCard } from '../support/payments';
import { test } from '../support/shared-shop';

/*
 * « The payment journal's verification passes on a journal built by the e2e suite and fails, naming
 * the entry, on a copy where one amount was changed in SQL. » On the worker's sandbox server: a
 * guest pays by card at the sandbox, another chooses a bank transfer at checkout which a staff
 * member validates in « Validation Paiements », and the staff refund part of the card order. The
 * real command (`npm run journal:verify`) then reads the server's own database and passes; on a copy
 * of its journal where one entry's amount was changed behind the append-only trigger's back, it
 * fails and names that entry.
 */

interface JournalRow {
  seq: string;
  kind: string;
  order_number: string;
  amount_cents: string;
  method: string;
  provider: string | null;
  actor: string;
}

/** A staff member's form post to the back office, as the page's form sends it. */
function staffPost(url: string, path: string, cookie: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      origin: url,
      cookie,
      'x-forwarded-for': randomIp(),
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(fields),
  });
}

/**
 * A copy of the server's journal, in a fresh database made from the migrated template (same schema,
 * same triggers, same runtime role). `CREATE DATABASE … TEMPLATE <the server's database>` is not
 * possible: it needs the source without any other connection, and the shared server keeps its pool
 * open for the next files of this worker. Copying the two journal tables row for row (as JSON, no
 * pg_dump) is all the verification reads of a journal: with no money rows in the copy, nothing is
 * reported as missing, so any fault it finds is in the entries themselves.
 */
async function copyJournal(sourceUrl: string): Promise<{ name: string; url: string; ownerUrl: string }> {
  const copy = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
  const tables = await withClient(sourceUrl, async (source) => {
    const read = async (table: string) =>
      (
        await source.query<{ rows: unknown[] }>(
          `select coalesce(json_agg(t order by t.seq), '[]'::json) as rows from ${table} t`,
        )
      ).rows[0]?.rows ?? [];
    return {
      payment_journal: await read('payment_journal'),
      payment_journal_closures: await read('payment_journal_closures'),
    };
  });
  await withClient(copy.ownerUrl, async (target) => {
    for (const [table, rows] of Object.entries(tables)) {
      await target.query(`insert into ${table} select * from json_populate_recordset(null::${table}, $1::json)`, [
        JSON.stringify(rows),
      ]);
    }
  });
  return copy;
}

test('npm run journal:verify passes on the journal the shop built, and names the entry changed in SQL on a copy', async ({
  sandboxShop: shop,
  browser,
}) => {
  const env = { APP_SECRET: shop.appSecret };
  const admin = await createUser({ url: shop.url, databaseUrl: shop.databaseUrl, role: 'admin' });

  // A card payment at the sandbox (its signed notification pays the order and issues its invoice).
  const cardEmail = uniqueEmail('journal-carte');
  const card = await insertTestOrder(shop.databaseUrl, { guestEmail: cardEmail });
  await payBySandboxCard(shop.url, card, cardEmail);

  // A bank transfer chosen at checkout by the guest…
  const transfer: TestOrder = await insertTestOrder(shop.databaseUrl, { guestEmail: uniqueEmail('journal-virement') });
  const page = await openPage(browser, undefined, { extraHTTPHeaders: { 'x-forwarded-for': randomIp() } });
  await addSessionCookie(page, shop.url, transfer.cookie as string);
  await page.goto(`${shop.url}/checkout?orderId=${transfer.id}`);
  await page.getByRole('radio', { name: 'Virement bancaire' }).check();
  await page.getByRole('checkbox', { name: /Je demande expressément que la numérisation/ }).check();
  await page.getByRole('button', { name: 'Commander et payer 94,90\u00A0€ par virement' }).click();
  await page.waitForURL(`${shop.url}/confirmation?orderId=${transfer.id}`);
  await page.context().close();
  // …and validated by the staff in « Validation Paiements ».
  const validated = await staffPost(shop.url, '/admin/api/paiements', admin.cookie, {
    decision: 'validate',
    id: `o:${transfer.id}`,
  });
  expect(validated.status).toBe(200);
  expect(await validated.json()).toMatchObject({ results: [{ ok: true }] });

  // 20,00 € of the card order refunded through the gateway, from the order's « Rembourser » form.
  const refunded = await staffPost(shop.url, '/admin?index', admin.cookie, {
    intent: 'refund',
    orderId: card.id,
    amount: '20,00',
    method: 'gateway',
    reason: 'Une cassette vierge',
  });
  expect(refunded.status).toBe(200);

  // The journal holds those three entries (so the verification below cannot pass on an empty one).
  const { mine, lastSeq } = await withClient(shop.databaseUrl, async (client) => ({
    mine: (
      await client.query<JournalRow>(
        `select seq, kind, order_number, amount_cents, method, provider, actor
           from payment_journal where order_number = any($1) order by seq`,
        [[card.number, transfer.number]],
      )
    ).rows,
    lastSeq: Number((await client.query<{ max: string }>('select max(seq) from payment_journal')).rows[0]?.max),
  }));
  expect(mine.map(({ seq: _, ...entry }) => ({ ...entry, amount_cents: Number(entry.amount_cents) }))).toEqual([
    {
      kind: 'payment_received',
      order_number: card.number,
      amount_cents: 9490,
      method: 'card',
      provider: 'sandbox',
      actor: 'sandbox',
    },
    {
      kind: 'payment_validated',
      order_number: transfer.number,
      amount_cents: 9490,
      method: 'transfer',
      provider: null,
      actor: admin.id,
    },
    {
      kind: 'refund',
      order_number: card.number,
      amount_cents: 2000,
      method: 'gateway',
      provider: 'sandbox',
      actor: admin.id,
    },
  ]);

  // The auditor's command on the shop's database: exit 0 and its summary up to the last entry.
  const passed = await runJournalVerify({ ...env, DATABASE_URL: shop.databaseUrl });
  expect(passed.code, passed.stderr).toBe(0);
  expect(passed.stdout).toContain(`Journal des paiements conforme\u00a0: ${lastSeq} écriture(s) (n° 1 à ${lastSeq},`);

  // A copy where the card payment's amount was changed, the append-only trigger switched off by the
  // database's owner for the time of the UPDATE (on the copy only).
  const altered = Number(mine[0]?.seq);
  const copy = await copyJournal(shop.databaseUrl);
  try {
    await withClient(copy.ownerUrl, (client) =>
      client.query(`
        begin;
        alter table payment_journal disable trigger payment_journal_append_only;
        update payment_journal set amount_cents = 100 where seq = ${altered};
        alter table payment_journal enable trigger payment_journal_append_only;
        commit;`),
    );
    const failed = await runJournalVerify({ ...env, DATABASE_URL: copy.url });
    expect(failed.code, failed.stdout).toBe(1);
    expect(failed.stderr).toContain(
      `Journal des paiements NON conforme\u00a0: Écriture n° ${altered}, commande ${card.number}`,
    );
    expect(failed.stderr).toContain('son contenu ne correspond plus à son empreinte');
  } finally {
    await dropTestDatabase(inject('pgAdminUrl'), copy.name);
  }
});
