import http from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../log.server';
import { requestContext } from './request-context.server';

/*
 * The request's id as a proxy and an operator see it: echoed in the answer, and on every line the
 * logger writes for that request, however late and deep (after awaits, from a timer).
 */

const lines: Record<string, unknown>[] = [];
const log = createLogger(
  new Writable({
    write(chunk, _encoding, callback) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      callback();
    },
  }),
  { level: 'info', pretty: false },
);

let server: http.Server | undefined;
afterEach(() => {
  server?.close();
  lines.length = 0;
});

async function serve(): Promise<string> {
  server = http.createServer((req, res) =>
    requestContext(req, res, async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info('deep in the request');
      res.end('ok');
    }),
  );
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('request ids', () => {
  it("keeps the proxy's id, makes one otherwise, and puts it on the request's log lines", async () => {
    const url = await serve();
    const given = await fetch(url, { headers: { 'x-request-id': 'nginx-4f1c2a9e77' } });
    expect(given.headers.get('x-request-id')).toBe('nginx-4f1c2a9e77');
    const made = await fetch(url, { headers: { 'x-request-id': 'not an id; <script>' } });
    const madeId = made.headers.get('x-request-id');
    expect(madeId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(lines.map((line) => line.requestId)).toEqual(['nginx-4f1c2a9e77', madeId]);
    // Outside a request, no id.
    log.info('at start');
    expect(lines.at(-1)).not.toHaveProperty('requestId');
  });
});
