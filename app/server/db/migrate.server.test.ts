import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { insertTestOrder } from '../../../tests/support/orders';
import { pool } from './client.server';
import { migrateDatabase } from './migrate.server';

describe('migrations', () => {
  it('are a no-op when applied again', async () => {
    const before = await pool().query('select count(*) as n from drizzle.__drizzle_migrations');
    await migrateDatabase(process.env.DATABASE_URL as string);
    await migrateDatabase(process.env.DATABASE_URL as string);
    const after = await pool().query('select count(*) as n from drizzle.__drizzle_migrations');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    expect(before.rows[0].n).toBeGreaterThan(0);
  });

  it('create every table of the data model, with an index on every foreign key', async () => {
    const { rows: tables } = await pool().query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining([
        'user',
        'session',
        'account',
        'verification',
        'orders',
        'order_items',
        'order_events',
        'payments',
        'payment_events',
        'invoices',
        'credit_notes',
        'invoice_counters',
        'price_lists',
        'quotes',
        'config_options',
        'email_outbox',
        'contact_messages',
        'notifications',
      ]),
    );
    // A foreign key whose columns do not lead any index makes deletes and joins scan whole tables.
    const { rows: unindexed } = await pool().query(`
      select c.conrelid::regclass::text as table_name, c.conname
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid and (i.indkey::int2[])[0:array_length(c.conkey, 1) - 1] = c.conkey
        )`);
    expect(unindexed).toEqual([]);
  });

  it('0028 marks as refusals the credit notes whose history said so, and no other', async () => {
    const order = await insertTestOrder(process.env.DATABASE_URL as string);
    const {
      rows: [invoice],
    } = await pool().query<{ id: string }>(
      `insert into invoices (number, order_id, amount, vat, snapshot, is_paid)
       values ('FA-MIG-' || gen_random_uuid(), $1, 4200, 700, '{}', true) returning id`,
      [order.id],
    );
    const notes: string[] = [];
    for (const refusal of [true, false]) {
      const {
        rows: [note],
      } = await pool().query<{ id: string }>(
        `insert into credit_notes (number, order_id, invoice_id, amount, vat, snapshot)
         values ('AV-MIG-' || gen_random_uuid(), $1, $2, 2100, 350, '{}') returning id`,
        [order.id, invoice?.id],
      );
      notes.push(note?.id as string);
      await pool().query(
        `insert into order_events (order_id, actor, kind, data) values ($1, 'system', 'credit_note_issued', $2)`,
        [order.id, JSON.stringify({ creditNoteId: note?.id, ...(refusal ? { refusal: true } : {}) })],
      );
    }
    // The migration's backfill, as the file runs it on a database written before the column.
    const backfill = readFileSync(new URL('../../../drizzle/0028_credit_note_refusal.sql', import.meta.url), 'utf8')
      .split('--> statement-breakpoint')
      .find((statement) => /^\s*(--.*\n)*\s*UPDATE/i.test(statement));
    expect(backfill).toBeDefined();
    await pool().query(backfill as string);
    const { rows } = await pool().query<{ id: string; refusal: boolean }>(
      'select id, refusal from credit_notes where id = any($1)',
      [notes],
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.refusal]))).toEqual({
      [notes[0] as string]: true,
      [notes[1] as string]: false,
    });
  });
});
