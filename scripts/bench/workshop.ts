import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import {
  ADMIN_EMAIL,
  ADMIN_GOAL_FACTOR,
  ADMIN_PASSWORD,
  type AdminTiming,
  type Shop,
  scalingRows,
  signIn,
  timeTwoShops,
  WARM_REQUESTS,
} from './admin';
import { makeDataDir, runScript, startBenchServer } from './server';

/*
 * The workshop board at scale (/admin/atelier): a shop of 1 000 and one of 200 000 orders spread
 * over the stages (four in ten already shipped, one in ten canceled), with due dates a third of
 * which have passed, written in a few SQL statements (generate_series) rather than through the
 * demo seed, whose orders never reach the workshop. Goal: the large shop within 2× the small one.
 */

export const WORKSHOP_PAGES: { label: string; path: string }[] = [
  { label: 'Board (every column)', path: '/admin/atelier' },
  { label: 'Board, VHS only', path: '/admin/atelier?support=vhs' },
  { label: 'Board, USB key and return of originals', path: '/admin/atelier?livraison=usb&retour=oui' },
  { label: 'One column, page 5', path: '/admin/atelier?colonne=digitising&page=5' },
  { label: 'Waiting for shipping', path: '/admin/atelier?attente=expedition' },
];

const SUPPORTS = ['photos', 'slides', 'negatives', 'vhs', 'vhs-c', 'minidv', 'film', 'documents'];

/** `count` orders in the workshop's states, with one line each. */
async function seedWorkshop(databaseUrl: string, count: number) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into orders (number, guest_email, guest_first_name, guest_last_name, status, payment_status,
         delivery_method, return_originals, send_method, express, stage, received_at, due_at, total_price, created_at)
       select 'SV-BANC-' || lpad(i::text, 7, '0'), 'atelier' || i || '@example.fr', 'Camille', 'Atelier ' || i,
         case when i % 10 < 4 then 'shipped' when i % 10 = 9 then 'canceled' when i % 10 = 8 then 'completed'
              else 'processing' end,
         'paid',
         (array['digital', 'usb', 'disc'])[1 + i % 3],
         i % 4 = 0,
         case when i % 5 = 0 then 'label' else 'self' end,
         i % 7 = 0,
         case when i % 10 < 4 or i % 10 = 8 then 'ready' when i % 10 in (4, 9) then 'awaiting_originals'
              else (array['received', 'digitising', 'quality_check'])[i % 10 - 4] end,
         case when i % 10 in (4, 9) then null else now() - interval '10 days' + (i % 30) * interval '1 day' end,
         case when i % 10 in (4, 9) then null else now() + ((i % 30) - 10) * interval '1 day' end,
         5000,
         now() - i * interval '1 minute'
       from generate_series(1, $1::int) as i`,
      [count],
    );
    await client.query(
      `insert into order_items (order_id, position, type, quantity, unit_price, line_total)
       select o.id, 0, ($1::text[])[1 + substr(o.number, 9)::int % $2::int], 10, 50, 500
       from orders o where o.number like 'SV-BANC-%'`,
      [SUPPORTS, SUPPORTS.length],
    );
    // What autovacuum does shortly after a bulk load: the planner's statistics for the new rows.
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

async function openWorkshopShop(orders: number): Promise<Shop> {
  const dataDir = await makeDataDir(`atelier-${orders}`);
  runScript(
    'scripts/admin-create.ts',
    ['--email', ADMIN_EMAIL, '--password', ADMIN_PASSWORD, '--first-name', 'Banc', '--last-name', 'Essai'],
    dataDir,
  );
  // The script created the database with DATA_DIR's key: the server must use the same one.
  const secret = (await fs.readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim();
  const server = await startBenchServer({ dataDir, env: { APP_SECRET: secret } });
  try {
    console.log(`  ${orders.toLocaleString('fr-FR')} commandes à l’atelier : génération…`);
    const seeding = performance.now();
    await seedWorkshop(await server.databaseUrl(), orders);
    console.log(`  (${((performance.now() - seeding) / 1000).toFixed(0)} s)`);
    return { url: server.url, cookie: await signIn(server.url), stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

export function timeWorkshop(small: number, large: number): Promise<[AdminTiming[], AdminTiming[]]> {
  return timeTwoShops(openWorkshopShop, small, large, WORKSHOP_PAGES);
}

export function workshopSection(small: number, large: number, a: AdminTiming[], b: AdminTiming[]): string {
  const fr = (n: number) => n.toLocaleString('en-US');
  const { rows, misses } = scalingRows(WORKSHOP_PAGES, a, b);
  return `Shops whose orders are written by \`generate_series\` (scripts/bench/workshop.ts): four in ten
shipped, one in ten canceled, the rest spread over the workshop's stages, a third of the due dates
passed, one support line per order; then \`VACUUM ANALYZE\`. Each page is the full server-rendered
board (six columns of ten cards, each with its capped count), signed in as the administrator.
Figures in milliseconds: median of ${WARM_REQUESTS} requests, the first (cold) one in brackets; requests
alternate between the two shops.

| page | address | ${fr(small)} orders, ms | ${fr(large)} orders, ms | ratio |
|---|---|---|---|---|
${rows.join('\n')}

Goal: the ${fr(large)}-order figure within ${ADMIN_GOAL_FACTOR}× the ${fr(small)}-order figure. ${
    misses.length === 0 ? 'Held on every page.' : `Not held on ${misses.map((p) => `\`${p.path}\``).join(', ')}.`
  }`;
}
