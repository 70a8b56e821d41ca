import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import * as tus from 'tus-js-client';
import { formatFileSize } from '../../app/domain/files/delivered-files';
import {
  decodeUploadOutcome,
  UPLOAD_CHUNK_BYTES,
  UPLOAD_RESULT_HEADER,
  UPLOADS_PATH,
} from '../../app/domain/files/uploads';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signIn } from './admin';
import { makeDataDir, runScript, startBenchServer } from './server';

/*
 * A 1 GB upload cut halfway and resumed: tus-js-client (Node) sends a file of
 * random bytes to the production server in PATCHes of 16 MiB, as the back office's panel does;
 * at 50 % the PATCH in flight is aborted (its connection destroyed), and a new Upload started on
 * the same address asks the server where it stopped (HEAD) and sends the rest. Reported: the bytes
 * sent twice (what was on the wire when the cut came and never reached the disk), the throughput of
 * both halves, and whether the stored file's SHA-256 (computed by the shop while storing) equals
 * the source's.
 */

export interface FilesUploadFigures {
  sizeBytes: number;
  cutAtBytes: number;
  resumedFromBytes: number;
  resentBytes: number;
  firstHalfS: number;
  secondHalfS: number;
  mbPerS: number;
  sourceSha256: string;
  storedSha256: string | null;
  serverRssBeforeMb: number | null;
  serverPeakRssMb: number | null;
}

async function makeSource(file: string, bytes: number): Promise<string> {
  const hash = createHash('sha256');
  const out = fs.createWriteStream(file);
  const block = 16 * 1024 * 1024;
  for (let written = 0; written < bytes; written += block) {
    const chunk = randomBytes(Math.min(block, bytes - written));
    hash.update(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return hash.digest('hex');
}

async function insertOrder(databaseUrl: string): Promise<string> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>(
      `insert into orders (number, guest_email, guest_first_name, guest_last_name, status, payment_status, total_price)
       values ('SV-BANC-TELEVERSEMENT', 'banc@example.fr', 'Camille', 'Banc', 'processing', 'paid', 1700) returning id`,
    );
    const id = rows[0]?.id as string;
    await client.query(
      `insert into order_items (order_id, position, type, quantity, unit_price, line_total) values ($1, 0, 'vhs', 1, 1700, 1700)`,
      [id],
    );
    return id;
  } finally {
    await client.end();
  }
}

/** The peak resident memory of the process listening on `port` (Linux /proc), or null. */
function serverPid(port: number): number | null {
  try {
    const inode = fs
      .readFileSync('/proc/net/tcp', 'utf8')
      .split('\n')
      .map((line) => line.trim().split(/\s+/))
      .find(
        (cols) => cols[1]?.endsWith(`:${port.toString(16).toUpperCase().padStart(4, '0')}`) && cols[3] === '0A',
      )?.[9];
    if (!inode) return null;
    for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
      try {
        for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
          if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return Number(pid);
        }
      } catch {
        // another user's process, or gone
      }
    }
  } catch {
    // not Linux
  }
  return null;
}

/** VmRSS (now) or VmHWM (peak) of a process, in MB. */
function rssMb(pid: number | null, field: 'VmRSS' | 'VmHWM'): number | null {
  if (!pid) return null;
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Math.round(Number(line.replace(/\D/g, '')) / 1024) : null;
  } catch {
    return null;
  }
}

export async function benchFilesUpload(sizeBytes = 1000 ** 3): Promise<FilesUploadFigures> {
  const dataDir = await makeDataDir('files-upload');
  runScript(
    'scripts/admin-create.ts',
    ['--email', ADMIN_EMAIL, '--password', ADMIN_PASSWORD, '--first-name', 'Banc', '--last-name', 'Essai'],
    dataDir,
  );
  // The script wrote DATA_DIR/app-secret: the server must use the same key (the database checks it).
  const appSecret = (await fsp.readFile(path.join(dataDir, 'app-secret'), 'utf8')).trim();
  const server = await startBenchServer({ dataDir, env: { APP_SECRET: appSecret } });
  const work = await fsp.mkdtemp(path.join(os.tmpdir(), 'soovenirs-bench-source-'));
  try {
    const cookie = await signIn(server.url);
    const orderId = await insertOrder(await server.databaseUrl());
    const source = path.join(work, 'cassette-vhs.mp4');
    console.log(`  source : ${formatFileSize(sizeBytes)} d’octets aléatoires…`);
    const sourceSha256 = await makeSource(source, sizeBytes);
    const pid = serverPid(Number(new URL(server.url).port));
    const serverRssBeforeMb = rssMb(pid, 'VmRSS');
    // The peak from here on (Linux: writing 5 to clear_refs resets VmHWM to the current RSS).
    if (pid) await fsp.writeFile(`/proc/${pid}/clear_refs`, '5').catch(() => undefined);
    const options = {
      endpoint: `${server.url}${UPLOADS_PATH}`,
      chunkSize: UPLOAD_CHUNK_BYTES,
      retryDelays: [0, 200, 500, 1000],
      metadata: { orderId, support: 'vhs', filename: 'cassette-vhs.mp4' },
      headers: { cookie },
      storeFingerprintForResuming: false,
    };

    // First half, then the cut.
    const cutAt = Math.floor(sizeBytes / 2);
    let sentBeforeCut = 0;
    const started = performance.now();
    const url = await new Promise<string>((resolve, reject) => {
      const first: tus.Upload = new tus.Upload(fs.createReadStream(source), {
        ...options,
        onProgress(sent) {
          if (sent >= cutAt && sentBeforeCut === 0 && first.url) {
            sentBeforeCut = sent;
            // Aborting destroys the PATCH in flight: the network cut, mid-chunk.
            void first.abort(false).then(() => resolve(first.url as string));
          }
        },
        onSuccess: () => reject(new Error('the upload ended before the cut')),
        onError: reject,
      });
      first.start();
    });
    const firstHalfS = (performance.now() - started) / 1000;
    console.log(`  coupure à ${formatFileSize(sentBeforeCut)} (${firstHalfS.toFixed(1)} s)`);

    // A new Upload on the same address: HEAD, then the rest.
    let resumedFrom: number | null = null;
    const resumed = performance.now();
    const storedSha256 = await new Promise<string | null>((resolve, reject) => {
      const second = new tus.Upload(fs.createReadStream(source), {
        ...options,
        uploadUrl: url,
        onBeforeRequest(req) {
          if (req.getMethod() === 'PATCH' && resumedFrom === null) resumedFrom = Number(req.getHeader('Upload-Offset'));
        },
        onSuccess({ lastResponse }) {
          resolve(decodeUploadOutcome(lastResponse.getHeader(UPLOAD_RESULT_HEADER))?.sha256 ?? null);
        },
        onError: reject,
      });
      second.start();
    });
    const secondHalfS = (performance.now() - resumed) / 1000;
    const resumedFromBytes = resumedFrom ?? 0;
    const sentBytes = sentBeforeCut + (sizeBytes - resumedFromBytes);
    return {
      sizeBytes,
      cutAtBytes: sentBeforeCut,
      resumedFromBytes,
      resentBytes: sentBeforeCut - resumedFromBytes,
      firstHalfS,
      secondHalfS,
      mbPerS: sentBytes / 1e6 / (firstHalfS + secondHalfS),
      sourceSha256,
      storedSha256,
      serverRssBeforeMb,
      serverPeakRssMb: rssMb(pid, 'VmHWM'),
    };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
    await server.stop();
  }
}

export function filesUploadSection(f: FilesUploadFigures): string {
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  const ok = f.storedSha256 === f.sourceSha256;
  return `A file of ${mb(f.sizeBytes)} of random bytes sent by tus-js-client (Node) to the production
server (local storage in DATA_DIR), in PATCHes of ${UPLOAD_CHUNK_BYTES / 1024 / 1024} MiB as the back office's panel sends
them; at 50 % the PATCH in flight is aborted (its connection destroyed mid-chunk), then a new
Upload on the same address asks the server's offset (HEAD) and sends the rest
(\`npm run bench -- --only files-upload\`, scripts/bench/files-upload.ts).

| | |
|---|---|
| Cut after | ${mb(f.cutAtBytes)} sent |
| Resumed from (server's offset) | ${mb(f.resumedFromBytes)} |
| Bytes sent twice | ${f.resentBytes.toLocaleString('en-US')} (${mb(f.resentBytes)}; goal: less than one chunk) |
| First part | ${f.firstHalfS.toFixed(1)} s |
| Second part (with storing: SHA-256, CRC-32, copy into the files' folder) | ${f.secondHalfS.toFixed(1)} s |
| Throughput over both parts | ${f.mbPerS.toFixed(1)} MB/s |
| Server's resident memory before the upload → peak | ${f.serverPeakRssMb === null ? 'not measured' : `${f.serverRssBeforeMb} MB → ${f.serverPeakRssMb} MB`} |
| Stored SHA-256 = source's | ${ok ? 'yes' : `**no** (${f.storedSha256} vs ${f.sourceSha256})`} |

Nothing starts again: what was on the wire when the connection died and had not reached the disk
is all that is sent twice; the server appends what it received of the aborted PATCH. The second
part includes the copy of the finished upload into the files' storage (the last PATCH answers
once the file is stored and checksummed).`;
}
