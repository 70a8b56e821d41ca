import type pg from 'pg';

/*
 * Multi-row inserts without one round trip per row: each column travels as one array parameter and
 * `unnest` turns the arrays back into rows, so a statement of any number of rows has as many
 * parameters as the table has columns (no 65 535-parameter limit, one parse and plan).
 */

export type ColumnTypes = Record<string, string>;

export class BulkInsert<C extends ColumnTypes> {
  private columns: Record<keyof C, unknown[]>;
  private count = 0;
  readonly sql: string;

  constructor(
    readonly table: string,
    private readonly types: C,
  ) {
    const names = Object.keys(types);
    this.columns = this.empty();
    const quoted = names.map((name) => `"${name}"`).join(', ');
    const params = names.map((name, i) => `$${i + 1}::${types[name]}[]`).join(', ');
    this.sql = `insert into ${table} (${quoted}) select * from unnest(${params})`;
  }

  private empty(): Record<keyof C, unknown[]> {
    return Object.fromEntries(Object.keys(this.types).map((name) => [name, []])) as unknown as Record<
      keyof C,
      unknown[]
    >;
  }

  get size(): number {
    return this.count;
  }

  add(row: Record<keyof C, unknown>): void {
    for (const name in this.columns) this.columns[name].push(row[name]);
    this.count++;
  }

  /** Sends the rows collected so far (if any) and starts a new batch. */
  flush(client: pg.ClientBase): Promise<unknown> {
    if (this.count === 0) return Promise.resolve();
    const values = Object.keys(this.types).map((name) => this.columns[name as keyof C]);
    this.columns = this.empty();
    this.count = 0;
    return client.query(this.sql, values);
  }
}
