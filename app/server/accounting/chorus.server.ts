import { crc32 } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { CHORUS_LIST_NAME, type ChorusDocumentRow, chorusListCsv, chorusZipName } from '~/domain/accounting/chorus';
import { unwritableDocumentMessage } from '~/domain/accounting/export-request';
import type { AccountingPeriod } from '~/domain/accounting/period';
import { centralHeader, endRecords, localHeader, planZip } from '~/domain/files/zip-layout';
import { parisDay } from '~/domain/invoices/number';
import { parseDocumentSnapshot } from '~/domain/invoices/snapshot';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { type Database, db } from '../db/client.server';
// The PDF the invoice's route serves (routes/api/invoice-pdf.ts): the same function, never another.
import { issuedDocumentFacturX } from '../invoices/factur-x-pdf.server';
import { documentFileName } from '../invoices/pdf.server';
import { log } from '../log.server';

/*
 * « Export Chorus Pro »: the period's invoices and credit notes to public bodies (the buyer's
 * `business.publicBody`, frozen on each document), their PDFs and the list of what to deposit, in
 * one ZIP. Public bodies are a few customers a month: the PDFs are drawn one after the other and
 * the archive sent with its exact length; a period is refused past CHORUS_MAX_DOCUMENTS.
 */

export const CHORUS_MAX_DOCUMENTS = 500;

interface Entry {
  name: string;
  bytes: Uint8Array;
  modifiedAt: Date;
}

export type ChorusExport =
  | { ok: true; fileName: string; bytes: Buffer; documents: number }
  | { ok: false; error: string };

export async function chorusExport(
  period: AccountingPeriod,
  actor: AuditActor = 'system',
  database: Database = db(),
): Promise<ChorusExport> {
  const { rows } = await database.execute(sql`
    select * from (
      select 'invoice' as kind, i.number, i.issued_at, i.snapshot, null::text as invoice_number
      from invoices i
      where not i.is_demo and (i.snapshot->'business'->>'publicBody')::boolean is true
        and i.issued_at >= (${period.from}::date)::timestamp at time zone 'Europe/Paris'
        and i.issued_at < (${period.to}::date + 1)::timestamp at time zone 'Europe/Paris'
      union all
      select 'credit_note', c.number, c.issued_at, c.snapshot, (select inv.number from invoices inv where inv.id = c.invoice_id)
      from credit_notes c
      where not c.is_demo and (c.snapshot->'business'->>'publicBody')::boolean is true
        and c.issued_at >= (${period.from}::date)::timestamp at time zone 'Europe/Paris'
        and c.issued_at < (${period.to}::date + 1)::timestamp at time zone 'Europe/Paris'
    ) d
    order by d.issued_at, d.number
    limit ${CHORUS_MAX_DOCUMENTS + 1}`);
  if (rows.length > CHORUS_MAX_DOCUMENTS) {
    return {
      ok: false,
      error: `Plus de ${CHORUS_MAX_DOCUMENTS} documents sur la période\u00a0: choisissez une période plus courte.`,
    };
  }
  const entries: Entry[] = [];
  const list: ChorusDocumentRow[] = [];
  for (const row of rows) {
    const snapshot = parseDocumentSnapshot(row.snapshot);
    if (!snapshot?.business) {
      log.error({ document: row.number }, 'chorus export refused: a snapshot does not read');
      return { ok: false, error: unwritableDocumentMessage(String(row.number)) };
    }
    const issuedAt = new Date(row.issued_at as string);
    const fileName = documentFileName(snapshot);
    entries.push({
      name: fileName,
      bytes: new Uint8Array(await issuedDocumentFacturX(snapshot)),
      modifiedAt: issuedAt,
    });
    list.push({
      kind: snapshot.kind,
      number: snapshot.number,
      day: parisDay(issuedAt),
      invoiceNumber: (row.invoice_number as string | null) ?? null,
      companyName: snapshot.business.companyName,
      siren: snapshot.business.siren,
      siret: snapshot.business.siret ?? null,
      serviceCode: snapshot.business.chorusServiceCode,
      engagementNumber: snapshot.business.engagementNumber,
      purchaseOrderReference: snapshot.business.purchaseOrderReference,
      totalExcludingVatCents: snapshot.totalExcludingVatCents,
      vatCents: snapshot.vatCents,
      totalCents: snapshot.totalCents,
      fileName,
    });
  }
  const csv = Buffer.from(chorusListCsv(list), 'utf8');
  entries.push({
    name: CHORUS_LIST_NAME,
    bytes: csv,
    modifiedAt: entries.reduce((latest, entry) => (entry.modifiedAt > latest ? entry.modifiedAt : latest), new Date(0)),
  });
  const plan = planZip(entries.map((entry) => ({ ...entry, size: entry.bytes.length, crc32: crc32(entry.bytes) })));
  const parts: Uint8Array[] = [];
  plan.entries.forEach((entry, index) => {
    parts.push(localHeader(entry), (entries[index] as Entry).bytes);
  });
  for (const entry of plan.entries) parts.push(centralHeader(entry, entry.offset));
  parts.push(endRecords(plan));
  await recordAudit(database, {
    actor,
    kind: 'export',
    subject: 'chorus',
    subjectLabel: 'Chorus Pro',
    after: { from: period.from, to: period.to, documents: list.length },
  });
  return {
    ok: true,
    fileName: chorusZipName(period.from, period.to),
    bytes: Buffer.concat(parts),
    documents: list.length,
  };
}
