import { PassThrough, Readable } from 'node:stream';
import { type SQL, sql } from 'drizzle-orm';
import { itemsSummary } from '~/domain/account/order-details';
import {
  csvHeader,
  csvLine,
  EXPORT_DATASET_LABELS,
  type ExportColumn,
  type ExportRequest,
  INVOICE_EXPORT_COLUMNS,
  type InvoiceExportRow,
  ORDER_EXPORT_COLUMNS,
  type OrderExportRow,
} from '~/domain/admin/exports';
import { INVOICE_STATE_LABELS, invoiceState } from '~/domain/admin/views';
import { SHOP_TIME_ZONE } from '~/domain/format';
import { includedVatCents } from '~/domain/pricing/pricing';
import { type AuditActor, recordAudit } from '../audit/audit.server';
import { db } from '../db/client.server';
import { log } from '../log.server';
import { CUSTOMER_EMAIL, CUSTOMER_NAME } from './orders.server';
import { isoTimestamp } from './search-sql.server';

/*
 * Exports of the Rapports tab, streamed: rows are read in batches of EXPORT_BATCH in the order of
 * the date index (keyset pagination on (date, id): each batch starts where the previous one ended,
 * no OFFSET), and written to the response as they come. Memory stays flat and the first bytes
 * leave at once, whatever the size of the period. No database connection is held while the
 * browser is slow to read: each batch is its own query.
 */

export const EXPORT_BATCH = 1_000;

interface Cursor {
  /** The date of the last row, as PostgreSQL wrote it (microseconds kept). */
  at: string;
  id: string;
}

const periodStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Europe/Paris'`;
const periodEnd = (day: string) => sql`(${day}::date + 1)::timestamp at time zone 'Europe/Paris'`;

/** Rows dated in the period; a selection names orders only (parseExportRequest): no invoice is in it. */
function inPeriod(column: SQL, request: ExportRequest): SQL {
  if (request.ids) return sql`false`;
  return sql`${column} >= ${periodStart(request.from)} and ${column} < ${periodEnd(request.to)}`;
}

/** The period's orders (on the date index), or the ones selected in the Commandes tab. */
function orderScope(request: ExportRequest): SQL {
  if (!request.ids) return inPeriod(sql`o.created_at`, request);
  return sql`o.id in (${sql.join(
    request.ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )})`;
}

async function orderBatch(
  request: ExportRequest,
  after: Cursor | null,
): Promise<{ rows: OrderExportRow[]; cursor: Cursor | null }> {
  // The first comparison lets the date index skip what was sent; the second breaks ties on the id.
  const keyset = after
    ? sql`and o.created_at >= ${after.at}::timestamptz and (o.created_at, o.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
    : sql``;
  const result = await db().execute(sql`
    select o.id, o.created_at::text as at_key, o.number, o.created_at, o.status, o.payment_status, o.payment_method,
      o.delivery_method, o.total_price, ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email,
      coalesce(u.phone, o.guest_phone) as phone,
      case when o.user_id is not null then u.city else o.guest_city end as city,
      (select i.number from invoices i where i.order_id = o.id and i.adjustment_id is null) as invoice_number,
      coalesce((select json_agg(json_build_object('type', it.type, 'quantity', it.quantity) order by it.position)
                from order_items it where it.order_id = o.id), '[]'::json) as items
    from (select * from orders o
          where ${orderScope(request)}
            and o.placed_at is not null ${keyset}
          order by o.created_at asc nulls first, o.id asc limit ${EXPORT_BATCH}) o
    left join "user" u on u.id = o.user_id
    order by o.created_at asc nulls first, o.id asc`);
  const rows = result.rows.map((r): OrderExportRow => {
    const total = Number(r.total_price);
    return {
      number: String(r.number),
      createdAt: isoTimestamp(r.created_at),
      customer: String(r.customer ?? ''),
      email: (r.email as string | null) ?? null,
      phone: (r.phone as string | null) ?? null,
      city: (r.city as string | null) ?? null,
      status: String(r.status),
      paymentStatus: String(r.payment_status),
      paymentMethod: String(r.payment_method),
      deliveryMethod: String(r.delivery_method),
      items: itemsSummary((r.items as Array<{ type: string; quantity: number }>) ?? []),
      totalCents: total,
      vatCents: includedVatCents(total),
      invoiceNumber: (r.invoice_number as string | null) ?? null,
    };
  });
  const last = result.rows[result.rows.length - 1];
  return { rows, cursor: last ? { at: String(last.at_key), id: String(last.id) } : null };
}

async function invoiceBatch(
  request: ExportRequest,
  after: Cursor | null,
): Promise<{ rows: InvoiceExportRow[]; cursor: Cursor | null }> {
  // Both tables are read in the order of their issue-date index, each up to one batch, and merged.
  const keyset = (alias: 'i' | 'c') => {
    const t = sql.raw(alias);
    return after
      ? sql`and ${t}.issued_at >= ${after.at}::timestamptz and (${t}.issued_at, ${t}.id) > (${after.at}::timestamptz, ${after.id}::uuid)`
      : sql``;
  };
  const result = await db().execute(sql`
    select d.*, o.number as order_number, ${CUSTOMER_NAME} as customer, ${CUSTOMER_EMAIL} as email,
      exists (select 1 from gift_card_sales g where g.order_id = d.order_id) as gift_card_sale
    from (
      (select i.id, 'invoice' as kind, i.issued_at::text as at_key, i.number, i.order_id, i.issued_at, i.amount,
         i.vat, i.is_paid, coalesce((i.snapshot->>'giftCardCents')::int, 0) as gift_card_cents,
         coalesce((select sum(c.amount) from credit_notes c where c.invoice_id = i.id), 0)::int as credited,
         (select string_agg(c.number, ', ' order by c.issued_at) from credit_notes c where c.invoice_id = i.id)
           as related
       from invoices i
       where not i.is_demo and ${inPeriod(sql`i.issued_at`, request)}
         ${keyset('i')}
       order by i.issued_at asc, i.id asc limit ${EXPORT_BATCH})
      union all
      (select c.id, 'credit_note' as kind, c.issued_at::text as at_key, c.number, c.order_id, c.issued_at, c.amount,
         c.vat, true as is_paid, 0 as gift_card_cents, 0 as credited,
         (select inv.number from invoices inv where inv.id = c.invoice_id)
       from credit_notes c
       where not c.is_demo and ${inPeriod(sql`c.issued_at`, request)}
         ${keyset('c')}
       order by c.issued_at asc, c.id asc limit ${EXPORT_BATCH})
      order by issued_at asc, id asc limit ${EXPORT_BATCH}
    ) d
    join orders o on o.id = d.order_id
    left join "user" u on u.id = o.user_id
    order by d.issued_at asc, d.id asc`);
  const rows = result.rows.map((r): InvoiceExportRow => {
    const creditNote = r.kind === 'credit_note';
    return {
      number: String(r.number),
      kind: creditNote ? 'credit_note' : 'invoice',
      issuedAt: isoTimestamp(r.issued_at),
      orderNumber: String(r.order_number),
      customer: String(r.customer ?? ''),
      email: (r.email as string | null) ?? null,
      amountCents: Number(r.amount),
      vatCents: Number(r.vat),
      state: creditNote
        ? 'Avoir'
        : INVOICE_STATE_LABELS[invoiceState(Number(r.amount), Number(r.credited), Boolean(r.is_paid))],
      related: (r.related as string | null) ?? null,
      giftCardSale: Boolean(r.gift_card_sale),
      giftCardCents: Number(r.gift_card_cents ?? 0),
    };
  });
  const last = result.rows[result.rows.length - 1];
  return { rows, cursor: last ? { at: String(last.at_key), id: String(last.id) } : null };
}

type Batcher<Row> = (request: ExportRequest, after: Cursor | null) => Promise<{ rows: Row[]; cursor: Cursor | null }>;

/** Called once every row was read, with how many there were (the audit log's entry). */
type OnComplete = (rowCount: number) => Promise<void>;

async function* batches<Row>(
  request: ExportRequest,
  next: Batcher<Row>,
  onComplete: OnComplete,
): AsyncGenerator<Row[]> {
  let cursor: Cursor | null = null;
  let rowCount = 0;
  for (;;) {
    const batch: { rows: Row[]; cursor: Cursor | null } = await next(request, cursor);
    rowCount += batch.rows.length;
    if (batch.rows.length > 0) yield batch.rows;
    if (batch.rows.length < EXPORT_BATCH || !batch.cursor) break;
    cursor = batch.cursor;
  }
  await onComplete(rowCount);
}

const encoder = new TextEncoder();

function csvStream<Row>(
  request: ExportRequest,
  columns: ReadonlyArray<ExportColumn<Row>>,
  next: Batcher<Row>,
  onComplete: OnComplete,
) {
  const iterator = batches(request, next, onComplete);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!started) {
          started = true;
          // The byte-order mark makes Excel read the file as UTF-8.
          controller.enqueue(encoder.encode(`\uFEFF${csvHeader(columns)}`));
          return;
        }
        const { value, done } = await iterator.next();
        if (done) return controller.close();
        controller.enqueue(encoder.encode(value.map((row) => csvLine(columns, row)).join('')));
      } catch (error) {
        log.error({ err: error }, 'CSV export failed');
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
}

/** The shop's day of an instant, as a date Excel shows as that day (Excel dates have no time zone). */
function excelDay(iso: string): Date {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: SHOP_TIME_ZONE }).format(new Date(iso));
  return new Date(`${day}T00:00:00Z`);
}

const MONEY_FORMAT = '#,##0.00 "€"';
const DATE_FORMAT = 'dd/mm/yyyy';

function xlsxStream<Row>(
  request: ExportRequest,
  columns: ReadonlyArray<ExportColumn<Row>>,
  next: Batcher<Row>,
  onComplete: OnComplete,
) {
  const output = new PassThrough();
  (async () => {
    // Loaded on the first Excel export, not at every start: exceljs and its zip libraries cost a
    // third of a second of CPU to load, for a download a few staff members make now and then.
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
      stream: output,
      useStyles: true,
      useSharedStrings: false,
    });
    workbook.creator = 'Soovenirs';
    workbook.created = new Date();
    const sheet = workbook.addWorksheet(EXPORT_DATASET_LABELS[request.dataset], {
      views: [{ state: 'frozen', ySplit: 1 }],
    });
    sheet.columns = columns.map((column, index) => ({
      key: String(index),
      width: column.width,
      style: column.kind === 'money' ? { numFmt: MONEY_FORMAT } : column.kind === 'date' ? { numFmt: DATE_FORMAT } : {},
    }));
    const header = sheet.addRow(columns.map((c) => c.header));
    header.font = { bold: true };
    header.commit();
    for await (const rows of batches(request, next, onComplete)) {
      for (const row of rows) {
        sheet
          .addRow(
            columns.map((column) => {
              const value = column.value(row);
              if (value === null || value === '') return null;
              if (column.kind === 'money') return Number(value) / 100;
              if (column.kind === 'date') return excelDay(String(value));
              return value;
            }),
          )
          .commit();
      }
      // Let the response drain before reading the next batch.
      if (output.writableNeedDrain) await new Promise((resolve) => output.once('drain', resolve));
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error) => {
    log.error({ err: error }, 'Excel export failed');
    output.destroy(error as Error);
  });
  return Readable.toWeb(output) as ReadableStream<Uint8Array>;
}

/**
 * The export as a streamed body, and its content type. Once every row is read, the audit log
 * records who exported what (dataset, period, format, row count): exports of accounting data are
 * kept 10 years (domain/audit/retention.ts). A download cancelled before its end is not recorded.
 */
export function exportStream(
  request: ExportRequest,
  actor: AuditActor = 'system',
): { body: ReadableStream<Uint8Array>; contentType: string } {
  const onComplete: OnComplete = (rows) =>
    recordAudit(db(), {
      actor,
      kind: 'export',
      subject: request.dataset,
      subjectLabel: EXPORT_DATASET_LABELS[request.dataset],
      after: {
        dataset: EXPORT_DATASET_LABELS[request.dataset],
        ...(request.ids ? { orders: request.ids.length } : { from: request.from, to: request.to }),
        format: request.format,
        rows,
      },
    });
  if (request.format === 'csv') {
    const body =
      request.dataset === 'commandes'
        ? csvStream(request, ORDER_EXPORT_COLUMNS, orderBatch, onComplete)
        : csvStream(request, INVOICE_EXPORT_COLUMNS, invoiceBatch, onComplete);
    return { body, contentType: 'text/csv; charset=utf-8' };
  }
  const body =
    request.dataset === 'commandes'
      ? xlsxStream(request, ORDER_EXPORT_COLUMNS, orderBatch, onComplete)
      : xlsxStream(request, INVOICE_EXPORT_COLUMNS, invoiceBatch, onComplete);
  return { body, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
}
