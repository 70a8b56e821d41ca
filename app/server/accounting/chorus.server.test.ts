import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwritableDocumentMessage } from '~/domain/accounting/export-request';
import type { BusinessBuyer } from '~/domain/invoices/snapshot';
import { payByCard } from '../../../tests/support/card-payment';
import { insertTestOrder } from '../../../tests/support/orders';
import { zipDigests } from '../../../tests/support/unzip';
import { db } from '../db/client.server';
import { issueCreditNote } from '../invoices/invoices.server';
import { log } from '../log.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { chorusExport } from './chorus.server';

/*
 * « Factures Chorus Pro »: the period's documents to public bodies, each PDF and the list to
 * deposit them, in one ZIP an independent reader opens; other buyers' and demonstration documents
 * are not in it.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
const databaseUrl = () => process.env.DATABASE_URL as string;
const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
let dir: string;

const TOWN_HALL: BusinessBuyer = {
  companyName: 'Mairie de Gien',
  siren: '214501546',
  vatNumber: null,
  purchaseOrderReference: 'BC-2026-118',
  publicBody: true,
  siret: '21450154600011',
  chorusServiceCode: 'ARCHIVES',
  engagementNumber: 'EJ-0042',
};

async function paidOrder(business: BusinessBuyer | null, provider: 'stripe' | 'sandbox' = 'stripe', extraCents = 0) {
  const order = await insertTestOrder(databaseUrl(), { extraCents });
  if (business)
    await db().execute(sql`update orders set business = ${JSON.stringify(business)}::jsonb where id = ${order.id}`);
  await payByCard(order.id, order.totalCents, null, provider);
  const { rows } = await db().execute<{ number: string }>(
    sql`select number from invoices where order_id = ${order.id} and adjustment_id is null`,
  );
  return { ...order, invoice: String(rows[0]?.number) };
}

beforeAll(async () => {
  await ensureDefaultPriceList();
  dir = await mkdtemp(path.join(tmpdir(), 'chorus-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the Chorus Pro export', () => {
  it('holds the public bodies’ invoices and credit notes as PDFs, with the list of their references', async () => {
    const townHall = await paidOrder(TOWN_HALL);
    await db().transaction((tx) =>
      issueCreditNote(tx, { orderId: townHall.id, actor: 'system', reason: 'Erreur de quantité', amountCents: 1000 }),
    );
    const company = await paidOrder({ ...TOWN_HALL, companyName: 'Studio Lumière', publicBody: false }, 'stripe', 1);
    const consumer = await paidOrder(null, 'stripe', 2);
    const demo = await paidOrder(TOWN_HALL, 'sandbox', 3);

    const zip = await chorusExport({ from: today(), to: today() });
    expect(zip.ok).toBe(true);
    if (!zip.ok) return;
    expect(zip.documents).toBe(2);
    expect(zip.fileName).toBe(`chorus-pro-${today()}-${today()}.zip`);
    const file = path.join(dir, zip.fileName);
    await writeFile(file, zip.bytes);
    const { rows: notes } = await db().execute<{ number: string }>(
      sql`select number from credit_notes where order_id = ${townHall.id}`,
    );
    const names = Object.keys(await zipDigests(file)).sort();
    expect(names).toEqual(
      [`facture-${townHall.invoice}.pdf`, `avoir-${notes[0]?.number}.pdf`, 'liste-chorus-pro.csv'].sort(),
    );
    // The list is stored uncompressed: read in the archive's bytes.
    const text = zip.bytes.toString('utf8');
    expect(text).toContain(
      'Type;Numéro;Date;Facture d’origine;Destinataire;SIREN;SIRET;Code service;N° d’engagement;Bon de commande;Montant HT;TVA;Montant TTC;Fichier PDF',
    );
    expect(text).toMatch(
      new RegExp(
        `Facture;${townHall.invoice};[0-9/]+;;Mairie de Gien;214501546;21450154600011;ARCHIVES;EJ-0042;BC-2026-118;`,
      ),
    );
    expect(text).toContain(`Avoir;${notes[0]?.number};`);
    for (const other of [company.invoice, consumer.invoice, demo.invoice]) expect(text).not.toContain(other);
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');
  }, 60_000);

  it('names a public body’s document whose content does not read, and produces nothing', async () => {
    const order = await insertTestOrder(databaseUrl());
    const number = `FA-ILLISIBLE-${order.id.slice(0, 8)}`;
    await db().execute(sql`
      insert into invoices (number, order_id, issued_at, amount, vat, snapshot, is_paid)
      values (${number}, ${order.id}, '2021-06-17T10:00:00+02:00', 4200, 700, '{"business": {"publicBody": true}}', true)`);
    expect(await chorusExport({ from: '2021-06-17', to: '2021-06-17' })).toEqual({
      ok: false,
      error: unwritableDocumentMessage(number),
    });
  });
});
