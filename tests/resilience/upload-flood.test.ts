import { readFile } from 'node:fs/promises';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOADS_PATH } from '../../app/domain/files/uploads';
import { startServer, type TestServer } from '../support/server';

/*
 * Issue 26, item 5: anonymous floods of 80 MB posts to the routes with large bodies (reception
 * photos, tus) are refused by the door (server/door.ts) from their headers, before a byte of the
 * body is read; /healthz answers under 100 ms throughout; the server's memory comes back to its
 * level. Loopback only, bounded loops.
 */

const BODY_BYTES = 80 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 0x61);
const CONCURRENT = 8;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.dispose();
});

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

/** One anonymous 80 MB post: its status and how long the answer took. */
function flood(path: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const url = new URL(path, server.url);
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          'content-type': 'application/octet-stream',
          'content-length': String(BODY_BYTES),
          'tus-resumable': '1.0.0',
          'upload-length': String(BODY_BYTES),
          origin: server.url,
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
      },
    );
    // The refusal closes the connection while we still send: that is the point.
    request.on('error', () => undefined);
    request.on('close', () => undefined);
    let sent = 0;
    const write = () => {
      while (sent < BODY_BYTES) {
        sent += CHUNK.length;
        if (!request.write(CHUNK)) {
          request.once('drain', write);
          return;
        }
      }
      request.end();
    };
    write();
    setTimeout(() => reject(new Error(`no answer from ${path} in 10 s`)), 10_000).unref();
  });
}

describe('a flood of anonymous 80 MB posts', () => {
  it('is refused before reading, /healthz stays fast, memory comes back', async () => {
    const pid = server.process.pid as number;
    const before = await rssKb(pid);
    const healthTimes: number[] = [];
    let flooding = true;
    const probe = (async () => {
      while (flooding) {
        const started = performance.now();
        const response = await fetch(`${server.url}/healthz`);
        await response.text();
        healthTimes.push(performance.now() - started);
      }
    })();

    const paths = [
      '/admin/api/reception/00000000-0000-4000-8000-000000000001',
      UPLOADS_PATH,
      '/admin/api/commandes/00000000-0000-4000-8000-000000000001/fichiers',
    ];
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT * paths.length }, (_, i) => flood(paths[i % paths.length] as string)),
    );
    flooding = false;
    await probe;

    for (const answer of answers) {
      expect([401, 403, 413]).toContain(answer.status);
      // Answered from the headers: far sooner than 80 MB could be read.
      expect(answer.ms).toBeLessThan(2_000);
    }
    expect(healthTimes.length).toBeGreaterThan(3);
    expect(Math.max(...healthTimes)).toBeLessThan(100);

    // Back within 20 MB of where it started, polled while the collector catches up.
    let after = await rssKb(pid);
    for (let attempt = 0; attempt < 50 && after - before > 20 * 1024; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await rssKb(pid);
    }
    expect(after - before).toBeLessThan(20 * 1024);
  });
});
