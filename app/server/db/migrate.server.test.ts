import { describe, expect, it } from 'vitest';
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
});
