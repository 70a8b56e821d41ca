import { spawn } from 'node:child_process';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import pg from 'pg';
import { insertTestOrderWith } from '../../tests/support/orders';
import { root, startBenchServer } from './server';

/*
 * « Tout télécharger » at scale: an order of 1 000 files totalling 2 GB in the
 * shop's local storage (random bytes made once under the system's temporary folder and hard-linked
 * into the server's DATA_DIR, their rows written as storeOrderFile writes them), downloaded as the
 * ZIP from the real production server, against a bare node:http server streaming the same bytes
 * (the same files concatenated, read from disk). Goals: the shop at ≥ 80 % of the bare server's
 * throughput, and its memory (VmRSS of the server process, sampled every 50 ms) growing by less than
 * 100 MB during the download. Two rounds each, alternating; the best of each is compared (other
 * work on the machine only ever slows a round down).
 */

export const ZIP_FILES = 1000;
export const ZIP_FILE_BYTES = 2_000_000;
const ROUNDS = 2;
const SOURCE = path.join(os.tmpdir(), 'soovenirs-bench-files-zip-source');

interface SourceFile {
  path: string;
  name: string;
  size: number;
  sha256: string;
  crc32: number;
}

interface Round {
  seconds: number;
  bytes: number;
  mbPerSecond: number;
}

export interface ZipFigures {
  files: number;
  totalBytes: number;
  zipBytes: number;
  shop: Round[];
  bare: Round[];
  rssBeforeMb: number;
  rssPeakMb: number;
  /** CPU seconds the shop's process used per ZIP download. */
  shopCpuSeconds: number[];
}

/** The 1 000 files, made once and kept between runs (their digests in manifest.json). */
async function sourceFiles(): Promise<SourceFile[]> {
  const manifestPath = path.join(SOURCE, 'manifest.json');
  try {
    const manifest = JSON.parse(await fsp.readFile(manifestPath, 'utf8')) as { files: SourceFile[] };
    const sizes = await Promise.all(
      manifest.files.map((file) =>
        fsp.stat(file.path).then(
          (s) => s.size,
          () => -1,
        ),
      ),
    );
    if (manifest.files.length === ZIP_FILES && sizes.every((size) => size === ZIP_FILE_BYTES)) return manifest.files;
  } catch {
    // not made yet
  }
  console.log(
    `Création de ${ZIP_FILES} fichiers aléatoires (${(ZIP_FILES * ZIP_FILE_BYTES) / 1e9} Go) dans ${SOURCE}…`,
  );
  await fsp.rm(SOURCE, { recursive: true, force: true });
  await fsp.mkdir(SOURCE, { recursive: true });
  const files: SourceFile[] = [];
  const buffer = Buffer.alloc(ZIP_FILE_BYTES);
  for (let i = 0; i < ZIP_FILES; i++) {
    randomFillSync(buffer);
    const name = `Scan_${String(i + 1).padStart(4, '0')}.jpg`;
    const file = path.join(SOURCE, name);
    await fsp.writeFile(file, buffer);
    files.push({
      path: file,
      name,
      size: buffer.length,
      sha256: createHash('sha256').update(buffer).digest('hex'),
      crc32: crc32(buffer) >>> 0,
    });
  }
  await fsp.writeFile(manifestPath, JSON.stringify({ files }));
  return files;
}

/** VmRSS of a process, in MB. */
async function rssMb(pid: number): Promise<number> {
  const status = await fsp.readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** CPU seconds (user + system) a process has used so far. */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await fsp.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line, 12 and 13 after the command; in clock ticks (100/s).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The server process of a bench server, found by its own DATA_DIR (BenchServer keeps no pid). */
async function serverPid(dataDir: string): Promise<number> {
  for (const entry of await fsp.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = await fsp.readFile(`/proc/${entry}/environ`, 'utf8');
      const cmdline = await fsp.readFile(`/proc/${entry}/cmdline`, 'utf8');
      if (environ.split('\0').includes(`DATA_DIR=${dataDir}`) && cmdline.includes('server/start.js'))
        return Number(entry);
    } catch {
      // gone, or not ours
    }
  }
  throw new Error('processus du serveur introuvable');
}

/** Downloads `url` to nowhere, checking the length announced; returns the time taken. */
function download(url: string, headers: Record<string, string> = {}): Promise<Round> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    http
      .get(url, { headers }, (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`${url} : ${res.statusCode}`));
          res.resume();
          return;
        }
        const expected = Number(res.headers['content-length']);
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on('end', () => {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          if (bytes !== expected) reject(new Error(`${url} : ${bytes} octets reçus sur ${expected} annoncés`));
          else resolve({ seconds, bytes, mbPerSecond: bytes / 1e6 / seconds });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

async function startBare(manifestPath: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/files-zip-bare.ts', manifestPath], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`serveur nu arrêté (${code})`)));
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function benchFilesZip(): Promise<ZipFigures> {
  const files = await sourceFiles();
  const server = await startBenchServer();
  const bare = await startBare(path.join(SOURCE, 'manifest.json'));
  const client = new pg.Client({ connectionString: await server.databaseUrl() });
  await client.connect();
  try {
    const order = await insertTestOrderWith(client, { paymentStatus: 'paid', status: 'completed' });
    await client.query(
      `update orders set stage = 'ready', files_published_at = now(), files_expire_at = now() + interval '60 days'
       where id = $1`,
      [order.id],
    );
    // The rows storeOrderFile would write, the bytes hard-linked rather than copied (2 GB saved).
    const folder = path.join(server.dataDir, 'files', 'orders', order.id);
    await fsp.mkdir(folder, { recursive: true });
    const rows = [];
    for (const file of files) {
      const id = randomUUID();
      const target = path.join(folder, id);
      await fsp.link(file.path, target).catch(() => fsp.copyFile(file.path, target));
      rows.push([id, order.id, `orders/${order.id}/${id}`, file.name, file.size, file.sha256, file.crc32]);
    }
    for (let i = 0; i < rows.length; i += 200) {
      const batch = rows.slice(i, i + 200);
      const values = batch
        .map(
          (_, j) =>
            `($${j * 7 + 1}, $${j * 7 + 2}, $${j * 7 + 3}, $${j * 7 + 4}, 'photos', 'image', 'image/jpeg', $${j * 7 + 5}, $${j * 7 + 6}, $${j * 7 + 7}, 'bench', 'none')`,
        )
        .join(', ');
      await client.query(
        `insert into order_files (id, order_id, storage_key, name, support, kind, content_type, size_bytes, sha256, crc32,
           uploaded_by, preview_status) values ${values}`,
        batch.flat(),
      );
    }

    const pid = await serverPid(server.dataDir);
    const zipUrl = `${server.url}/commande/${order.id}/fichiers.zip`;
    const headers = { Cookie: order.cookie as string };
    // Warm: the route's code loaded, a connection to the database open, as in a running shop.
    const warm = await fetch(`${server.url}/commande/${order.id}/fichiers`, { headers });
    if (warm.status !== 200) throw new Error(`galerie : ${warm.status}`);
    await warm.text();

    const rssBeforeMb = await rssMb(pid);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssMb(pid).then(
        (mb) => {
          rssPeakMb = Math.max(rssPeakMb, mb);
        },
        () => undefined,
      );
    }, 50);
    const shop: Round[] = [];
    const bareRounds: Round[] = [];
    const shopCpuSeconds: number[] = [];
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const cpuBefore = await cpuSeconds(pid);
        const zip = await download(zipUrl, headers);
        shopCpuSeconds.push((await cpuSeconds(pid)) - cpuBefore);
        shop.push(zip);
        console.log(`  boutique (ZIP) : ${zip.mbPerSecond.toFixed(0)} Mo/s en ${zip.seconds.toFixed(1)} s`);
        const plain = await download(bare.url);
        bareRounds.push(plain);
        console.log(`  serveur nu     : ${plain.mbPerSecond.toFixed(0)} Mo/s en ${plain.seconds.toFixed(1)} s`);
      }
    } finally {
      clearInterval(sampler);
    }
    return {
      files: files.length,
      totalBytes: files.reduce((sum, file) => sum + file.size, 0),
      zipBytes: shop[0]?.bytes ?? 0,
      shop,
      bare: bareRounds,
      rssBeforeMb,
      rssPeakMb,
      shopCpuSeconds,
    };
  } finally {
    await client.end();
    await bare.stop();
    await server.stop();
  }
}

const best = (rounds: Round[]) => Math.max(...rounds.map((round) => round.mbPerSecond));

export function filesZipSection(f: ZipFigures): string {
  const ratio = best(f.shop) / best(f.bare);
  const growth = f.rssPeakMb - f.rssBeforeMb;
  const rows = f.shop.map(
    (round, i) =>
      `| ${i + 1} | ${round.mbPerSecond.toFixed(0)} MB/s (${round.seconds.toFixed(1)} s) | ${(f.shopCpuSeconds[i] ?? 0).toFixed(1)} s | ${(f.bare[i]?.mbPerSecond ?? 0).toFixed(0)} MB/s (${(f.bare[i]?.seconds ?? 0).toFixed(1)} s) |`,
  );
  return `One order of ${f.files} files, ${(f.totalBytes / 1e9).toFixed(2)} GB in the local storage, downloaded as
\`/commande/{id}/fichiers.zip\` (${(f.zipBytes / 1e9).toFixed(3)} GB: STORE entries, headers built from the
rows' CRC-32 and sizes, exact Content-Length) from the production server, against a bare \`node:http\`
server streaming the same files concatenated from disk (scripts/bench/files-zip-bare.ts). The client
reads over loopback and discards the bytes; the shop's memory is the server process's VmRSS sampled
every 50 ms through the rounds.

| Round | Shop (ZIP) | Shop's CPU | Bare server |
| --- | --- | --- | --- |
${rows.join('\n')}

- Throughput, best round of each: shop ${best(f.shop).toFixed(0)} MB/s, bare ${best(f.bare).toFixed(0)} MB/s: **${(ratio * 100).toFixed(0)} %** (goal ≥ 80 %) ${ratio >= 0.8 ? '✓' : '✗'}
- Shop's RSS: ${f.rssBeforeMb.toFixed(0)} MB before, ${f.rssPeakMb.toFixed(0)} MB at most: **+${growth.toFixed(0)} MB** (goal < 100 MB) ${growth < 100 ? '✓' : '✗'}

The first runs (2026-11-24) gave 35 MB/s and +1 937 MB: React Router's Node adapter
(@react-router/node 7.18, \`writeReadableStreamToWritable\`) races each read against one promise
pending until the response ends, and V8 keeps every value such a race resolved with until then
(remix-run/react-router#15247), so a download held all its chunks, and the garbage collector
worked through them (20 s of CPU per download). The file routes now hand it their bytes in three
reused 1 MB buffers (app/server/files/downloads.server.ts, \`reuseBuffers\`).

\`npm run bench -- --only files-zip\`; the 2 GB of random files are made once under
\`${SOURCE}\` and reused.`;
}
