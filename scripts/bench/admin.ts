import { randomInt } from 'node:crypto';
import { makeDataDir, runScript, startBenchServer } from './server';

/*
 * The back office at scale: the same pages timed on a shop seeded with a small and with a large
 * number of demo orders (scripts/seed.ts). Each page is loaded as the administrator's browser
 * loads it (a full server-rendered document), first cold, then several times: the median counts.
 * Goal: the large shop's figure within twice the small shop's.
 */

export const ADMIN_EMAIL = 'bench-admin@example.fr';
export const ADMIN_PASSWORD = 'Banc-Essai-Admin-2026';
export const WARM_REQUESTS = 15;
export const ADMIN_GOAL_FACTOR = 2;

/** What the back office is made of: the dashboard (Commandes), each tab's first page, searches. */
export const ADMIN_PAGES: { label: string; path: string }[] = [
  { label: 'Dashboard (Commandes, page 1)', path: '/admin' },
  { label: 'Clients, page 1', path: '/admin/clients' },
  { label: 'Tarifs', path: '/admin/tarifs' },
  { label: 'Rapports', path: '/admin/rapports' },
  { label: 'Comptabilité, page 1', path: '/admin/comptabilite' },
  { label: 'Tests', path: '/admin/tests' },
  { label: 'Commandes, search "martin"', path: '/admin?q=martin' },
  { label: 'Clients, search "dupont"', path: '/admin/clients?q=dupont' },
  { label: 'Search box "lefebvre"', path: '/admin/api/recherche?q=lefebvre' },
  { label: 'Commandes, page 50', path: '/admin?page=50' },
];

export interface AdminTiming {
  path: string;
  coldMs: number;
  medianMs: number;
}

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

export async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/json', origin: url, 'x-forwarded-for': randomIp() },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((pair) => pair.includes('session_token='));
  if (!cookie) throw new Error('sign-in set no session cookie');
  return cookie;
}

async function timed(url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie }, redirect: 'manual' });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return elapsed;
}

export interface Shop {
  url: string;
  cookie: string;
  stop: () => Promise<void>;
}

/** A fresh shop seeded with `orders` demo orders and an administrator, served and signed in. */
async function openShop(orders: number): Promise<Shop> {
  const dataDir = await makeDataDir(`admin-${orders}`);
  console.log(`  ${orders.toLocaleString('fr-FR')} commandes : génération…`);
  const seeding = performance.now();
  runScript('scripts/seed.ts', ['--demo', '--orders', String(orders)], dataDir);
  console.log(`  (${((performance.now() - seeding) / 1000).toFixed(0)} s)`);
  runScript(
    'scripts/admin-create.ts',
    ['--email', ADMIN_EMAIL, '--password', ADMIN_PASSWORD, '--first-name', 'Banc', '--last-name', 'Essai'],
    dataDir,
  );
  const server = await startBenchServer({ dataDir });
  try {
    return { url: server.url, cookie: await signIn(server.url), stop: () => server.stop() };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * Times the pages on two shops, both running, alternating requests between them so that a burst
 * of load from elsewhere on the machine weighs on both figures alike.
 */
export async function timeAlternating(
  shops: readonly [Shop, Shop],
  pages: readonly { path: string }[],
): Promise<[AdminTiming[], AdminTiming[]]> {
  const timings: [AdminTiming[], AdminTiming[]] = [[], []];
  for (const page of pages) {
    const samples: number[][] = [[], []];
    const cold = [0, 0];
    for (let i = 0; i <= WARM_REQUESTS; i++) {
      for (const [k, shop] of shops.entries()) {
        const ms = await timed(`${shop.url}${page.path}`, shop.cookie);
        if (i === 0) cold[k] = ms;
        else samples[k]?.push(ms);
      }
    }
    for (const k of [0, 1] as const) {
      const sorted = (samples[k] ?? []).sort((a, b) => a - b);
      timings[k].push({ path: page.path, coldMs: cold[k] ?? 0, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0 });
    }
    const [a, b] = [timings[0].at(-1), timings[1].at(-1)];
    console.log(`    ${page.path}: ${Math.round(a?.medianMs ?? 0)} ms / ${Math.round(b?.medianMs ?? 0)} ms`);
  }
  return timings;
}

/** Opens a small and a large shop with `open`, times `pages` on both, and stops them whatever happens. */
export async function timeTwoShops(
  open: (orders: number) => Promise<Shop>,
  small: number,
  large: number,
  pages: { label: string; path: string }[],
): Promise<[AdminTiming[], AdminTiming[]]> {
  const first = await open(small);
  try {
    const second = await open(large);
    try {
      return await timeAlternating([first, second], pages);
    } finally {
      await second.stop();
    }
  } finally {
    await first.stop();
  }
}

/** Times the back office's pages on a small and a large shop of demo orders. */
export function timeAdmin(small: number, large: number): Promise<[AdminTiming[], AdminTiming[]]> {
  return timeTwoShops(openShop, small, large, ADMIN_PAGES);
}

/** The table rows (small vs large, ratio against the goal) and the pages that miss the goal. */
export function scalingRows(
  pages: { label: string; path: string }[],
  a: AdminTiming[],
  b: AdminTiming[],
): { rows: string[]; misses: { label: string; path: string }[] } {
  const rows = pages.map((page, i) => {
    const s = a[i] as AdminTiming;
    const l = b[i] as AdminTiming;
    const factor = l.medianMs / s.medianMs;
    return `| ${page.label} | \`${page.path}\` | ${Math.round(s.medianMs)} (${Math.round(s.coldMs)}) | ${Math.round(l.medianMs)} (${Math.round(l.coldMs)}) | ${factor.toFixed(2)}× ${factor <= ADMIN_GOAL_FACTOR ? '✓' : '✗'} |`;
  });
  const misses = pages.filter((_, i) => (b[i]?.medianMs ?? 0) / (a[i]?.medianMs ?? 1) > ADMIN_GOAL_FACTOR);
  return { rows, misses };
}

export function adminSection(small: number, large: number, a: AdminTiming[], b: AdminTiming[]): string {
  const fr = (n: number) => n.toLocaleString('en-US');
  const { rows, misses } = scalingRows(ADMIN_PAGES, a, b);
  return `Shops seeded by \`npm run seed -- --demo --orders N\` (customers, payments, invoices and history
in proportion), then \`VACUUM ANALYZE\` (what autovacuum does shortly after a bulk load: without it
the planner has no statistics for the new rows), an administrator signed in; each page is the full server-rendered document. Figures
in milliseconds: median of ${WARM_REQUESTS} requests, the first (cold) request in brackets. Both shops run
at once and the requests alternate between them (one at a time), so that the machine's other load
weighs on both columns alike.
The dashboard's statistics and the reports are cached by the server for a short while, which the
median includes.

| page | address | ${fr(small)} orders, ms | ${fr(large)} orders, ms | ratio |
|---|---|---|---|---|
${rows.join('\n')}

Goal: the ${fr(large)}-order figure within ${ADMIN_GOAL_FACTOR}× the ${fr(small)}-order figure. ${
    misses.length === 0 ? 'Held on every page.' : `Not held on ${misses.map((p) => `\`${p.path}\``).join(', ')}.`
  }`;
}
