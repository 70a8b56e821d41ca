import { spawn } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { root } from './server';

/*
 * Public pages under load: autocannon, 100 connections, on each page of the shop, then on a bare
 * node:http server answering the same bytes from memory (bare-server.ts), in the same run so that
 * the ratio holds whatever else the machine is doing. Requests carry no cookie (anonymous
 * visitors) and no Accept-Encoding (no compression on either side: the same bytes travel).
 */

export const PAGES = ['/', '/services', '/services/photos', '/configurateur'];
export const PAGE_GOAL_RATIO = 0.85;
export const CONNECTIONS = 100;

export interface LoadFigures {
  rps: number;
  /** Mean latency, ms: with every connection always busy, it must be close to connections / rps (Little's law). */
  mean: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

export interface PageFigures {
  path: string;
  bytes: number;
  /** Served by the shop, with its HTML cache. */
  shop: LoadFigures;
  /** Served by the shop with the HTML cache off (HTML_CACHE_MAX_ENTRIES=0), when measured. */
  uncached?: LoadFigures;
  bare: LoadFigures;
  /** What X-Cache said once the page was warm. */
  cache: string;
}

/** Seconds of one round of load; a measure alternates rounds on the shop and on the bare server. */
const ROUND_S = 2;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** Rounds together: requests per second averaged, latencies by their median round. */
function combine(rounds: LoadFigures[]): LoadFigures {
  return {
    rps: rounds.reduce((sum, r) => sum + r.rps, 0) / rounds.length,
    mean: rounds.reduce((sum, r) => sum + r.mean, 0) / rounds.length,
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    non2xx: rounds.reduce((sum, r) => sum + r.non2xx, 0),
  };
}

export async function load(url: string, durationS: number): Promise<LoadFigures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationS });
  return {
    // Completed requests over the measured time (autocannon's per-second average leaves out a
    // partial last second).
    rps: result.requests.total / result.duration,
    mean: result.latency.mean,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function startBare(body: Buffer, contentType: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const file = path.join(await fsp.mkdtemp(path.join(os.tmpdir(), 'soovenirs-bare-')), 'body');
  await fsp.writeFile(file, body);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts', file, contentType], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bare-server exited (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      await fsp.rm(path.dirname(file), { recursive: true, force: true });
    },
  };
}

export async function benchPages({
  url,
  uncachedUrl,
  durationS,
}: {
  url: string;
  uncachedUrl?: string;
  durationS: number;
}): Promise<PageFigures[]> {
  const figures: PageFigures[] = [];
  for (const pagePath of PAGES) {
    // Warm the page (rendered once, then kept if it may be), and take the bytes the bare server repeats.
    await (await fetch(`${url}${pagePath}`)).arrayBuffer();
    const response = await fetch(`${url}${pagePath}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status !== 200) throw new Error(`${pagePath} answered ${response.status}`);
    const cache = response.headers.get('x-cache') ?? '-';

    process.stdout.write(`  ${pagePath}… `);
    const bare = await startBare(body, response.headers.get('content-type') ?? 'text/html; charset=utf-8');
    const rounds: { shop: LoadFigures; uncached?: LoadFigures; bare: LoadFigures }[] = [];
    try {
      // Short alternating rounds: a burst of load from elsewhere on the machine hits both sides.
      const count = Math.max(1, Math.round(durationS / ROUND_S));
      for (let round = 0; round < count; round++) {
        const shop = await load(`${url}${pagePath}`, ROUND_S);
        const uncached = uncachedUrl ? await load(`${uncachedUrl}${pagePath}`, ROUND_S) : undefined;
        rounds.push({ shop, uncached, bare: await load(bare.url, ROUND_S) });
      }
    } finally {
      await bare.stop();
    }
    const shop = combine(rounds.map((r) => r.shop));
    const uncached = uncachedUrl ? combine(rounds.map((r) => r.uncached as LoadFigures)) : undefined;
    const bareFigures = combine(rounds.map((r) => r.bare));
    const ratio = shop.rps / bareFigures.rps;
    console.log(
      `${Math.round(shop.rps)} req/s contre ${Math.round(bareFigures.rps)} (${(ratio * 100).toFixed(0)} %, X-Cache ${cache})`,
    );
    figures.push({ path: pagePath, bytes: body.length, shop, uncached, bare: bareFigures, cache });
  }
  return figures;
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const latencies = (f: LoadFigures) => `${f.mean.toFixed(1)} / ${f.p50} / ${f.p99}`;

/*
 * Little's law: with CONNECTIONS requests always in flight, the mean latency is CONNECTIONS / rps.
 * The figures of a production test broke it (p50 500 ms at 2 000 req/s over 100 connections, where 50 ms
 * was expected): every cached page closed its connection, and autocannon's latencies then
 * counted its reconnections. A run whose mean strays from it by more than half is flagged.
 */
function inconsistent(f: LoadFigures): boolean {
  const expected = (CONNECTIONS / f.rps) * 1000;
  return Math.abs(f.mean - expected) > expected / 2;
}

export function pagesSection(figures: PageFigures[], durationS: number): string {
  const withUncached = figures.some((f) => f.uncached);
  const head = withUncached
    ? '| page | HTML bytes | shop req/s | mean / p50 / p99 ms | without HTML cache req/s | mean / p50 / p99 ms | bare node:http req/s | mean / p50 / p99 ms | shop / bare | X-Cache |\n|---|---|---|---|---|---|---|---|---|---|'
    : '| page | HTML bytes | shop req/s | mean / p50 / p99 ms | bare node:http req/s | mean / p50 / p99 ms | shop / bare | X-Cache |\n|---|---|---|---|---|---|---|---|';
  const rows = figures.map((f) => {
    const ratio = `${((f.shop.rps / f.bare.rps) * 100).toFixed(0)} %`;
    const cells = [
      `\`${f.path}\``,
      int(f.bytes),
      int(f.shop.rps),
      latencies(f.shop),
      ...(withUncached && f.uncached ? [int(f.uncached.rps), latencies(f.uncached)] : []),
      int(f.bare.rps),
      latencies(f.bare),
      ratio,
      f.cache,
    ];
    return `| ${cells.join(' | ')} |`;
  });
  const errors = figures.reduce((sum, f) => sum + f.shop.errors + f.shop.non2xx, 0);
  const strays = figures
    .flatMap(
      (f) =>
        [
          ['shop', f.shop],
          ['bare', f.bare],
        ] as const,
    )
    .filter(([, figure]) => inconsistent(figure)).length;
  const misses = figures.filter((f) => f.shop.rps / f.bare.rps < PAGE_GOAL_RATIO).map((f) => `\`${f.path}\``);
  const uncacheable = figures.filter((f) => f.cache !== 'HIT').map((f) => `\`${f.path}\``);
  const why =
    uncacheable.length === 0
      ? ''
      : `\n\n${uncacheable.join(', ')}: not served from the HTML cache, because the response does not say
\`Cache-Control: public\` (the route has no \`headers\` export choosing the public pages' caching,
app/domain/content/cache-control.ts). Every request renders the page, hence the gap; the
\`without HTML cache\` column shows the cost of rendering for the other pages.`;
  return `autocannon, ${CONNECTIONS} connections (kept alive), ${durationS} s per server and page in alternating rounds of ${ROUND_S} s
(${withUncached ? 'shop, shop without HTML cache, bare server' : 'shop, bare server'}, again), anonymous requests without compression:
requests per second (completed requests over the round's duration) and mean latency averaged over
the rounds, p50 and p99 the median round's. Check (Little's law): the mean latency should be close
to ${CONNECTIONS} connections ÷ req/s; ${
    strays === 0
      ? 'it is, for every figure of the shop and of the bare server'
      : `${strays} of ${figures.length * 2} figures ${strays === 1 ? 'strays' : 'stray'} from it by more than half (the machine's other load)`
  }. The reference is a
bare \`node:http\` server answering the same bytes from memory (scripts/bench/bare-server.ts);
alternating keeps the ratio meaningful on a busy machine.

${head}
${rows.join('\n')}

Goal: at least ${PAGE_GOAL_RATIO * 100} % of the bare server. ${
    misses.length === 0 ? 'Held on every page.' : `Not held on ${misses.join(', ')}.`
  } Errors and non-2xx answers from the shop: ${errors}.${why}`;
}
