import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BODY_TOO_LARGE_MESSAGE,
  bodyLimits,
  defaultBodyLimitBytes,
  JSON_TOO_DEEP_MESSAGE,
  jsonDepthScanner,
  limitFor,
  METHOD_NOT_ALLOWED_MESSAGE,
} from './body-limits';

describe('the limit of a path', () => {
  const rules = [
    { prefix: '/api/webhooks/', bytes: 1_000 },
    { prefix: '/api/webhooks/stripe', bytes: 2_000 },
  ];
  it.each([
    ['/contact', 100],
    ['/api/webhooks/monetico', 1_000],
    ['/api/webhooks/stripe', 2_000],
    ['/api/webhooksx', 100],
  ])('%s → %i bytes (longest prefix wins)', (path, bytes) => {
    expect(limitFor(path, rules, 100)).toBe(bytes);
  });

  it('reads BODY_LIMIT_KB, 256 KB by default, and refuses nonsense', () => {
    expect(defaultBodyLimitBytes({})).toBe(256 * 1024);
    expect(defaultBodyLimitBytes({ BODY_LIMIT_KB: '1024' })).toBe(1024 * 1024);
    expect(() => defaultBodyLimitBytes({ BODY_LIMIT_KB: '-3' })).toThrow(/BODY_LIMIT_KB/);
    expect(() => defaultBodyLimitBytes({ BODY_LIMIT_KB: 'beaucoup' })).toThrow(/BODY_LIMIT_KB/);
  });
});

describe('JSON nesting', () => {
  it.each([
    ['{"a":[1,{"b":2}]}', 3, false],
    ['[[[[]]]]', 3, true],
    ['[[[]]]', 3, false],
    ['{"a":"[[[[[[[["}', 3, false],
    ['{"a":"\\"[[[[[[[["}', 3, false],
    ['[[["\\\\"],[[]]]]', 3, true],
  ])('%s nested over %i: %s, whole or cut anywhere', (text, limit, exceeds) => {
    const bytes = Buffer.from(text);
    expect(jsonDepthScanner(limit).feed(bytes)).toBe(exceeds);
    // As the bytes arrive: the scanner keeps its place (in a string, after a backslash) across chunks.
    for (let cut = 1; cut < bytes.length; cut++) {
      const scanner = jsonDepthScanner(limit);
      const early = scanner.feed(bytes.subarray(0, cut));
      expect(early || scanner.feed(bytes.subarray(cut)), `cut at ${cut}`).toBe(exceeds);
    }
  });
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  ms: number;
}

/** A request through node:http, which (unlike fetch) sends any method and reports an early answer. */
function request(
  url: string,
  options: { method?: string; path?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer[]; agent?: http.Agent },
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}${options.path ?? '/'}`,
      { method: options.method ?? 'POST', headers: options.headers, agent: options.agent },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
      },
    );
    // The server may close while the rest of a refused body is on its way: the answer counts.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    (async () => {
      for (const chunk of options.body ?? []) {
        if (req.destroyed) return;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r).once('close', r));
      }
      req.end();
    })();
  });
}

describe('the limit middleware, over real HTTP', () => {
  let server: http.Server;
  let url: string;
  const seen: Array<{ path: string; bytes: number }> = [];

  beforeAll(async () => {
    const app = express();
    app.use(bodyLimits({ defaultBytes: 1024, rules: [{ prefix: '/webhook', bytes: 4096 }], maxJsonDepth: 4 }));
    // What a route receives: the whole body, as sent.
    app.all('/{*splat}', async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks);
      seen.push({ path: req.path, bytes: body.length });
      res.json({ bytes: body.length, text: body.toString('utf8').slice(0, 50) });
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('refuses a body whose Content-Length exceeds the limit, at once, closing the connection, before any route', async () => {
    seen.length = 0;
    const answer = await request(url, {
      path: '/contact',
      headers: { 'content-length': String(20 * 1024 * 1024) },
      body: Array.from({ length: 20 }, () => Buffer.alloc(1024 * 1024, 97)),
    });
    expect(answer.status).toBe(413);
    expect(answer.text).toBe(BODY_TOO_LARGE_MESSAGE);
    expect(answer.headers.connection).toBe('close');
    expect(answer.ms).toBeLessThan(1000);
    expect(seen).toEqual([]);
  });

  it('counts a chunked body as it arrives and refuses it past the limit; the route never sees its start', async () => {
    seen.length = 0;
    const answer = await request(url, {
      path: '/contact',
      headers: { 'transfer-encoding': 'chunked' },
      body: Array.from({ length: 2000 }, () => Buffer.alloc(10 * 1024, 97)),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(seen).toEqual([]);
  });

  it('hands a chunked body within the limit to the route unchanged, and keeps the connection', async () => {
    const agent = new http.Agent({ keepAlive: true });
    const answer = await request(url, {
      path: '/form',
      agent,
      headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/x-www-form-urlencoded' },
      body: [Buffer.from('a=1&'), Buffer.from('b=é'), Buffer.alloc(1000, 98)],
    });
    agent.destroy();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ bytes: 1008, text: `a=1&b=é${'b'.repeat(43)}` });
    expect(answer.headers.connection).toBe('keep-alive');
  });

  it('gives the paths of a rule their own limit', async () => {
    const within = await request(url, { path: '/webhook/stripe', body: [Buffer.alloc(4000, 97)] });
    expect(within.status).toBe(200);
    const over = await request(url, { path: '/webhook/stripe', body: [Buffer.alloc(4097, 97)] });
    expect(over.status).toBe(413);
    const elsewhere = await request(url, { path: '/contact', body: [Buffer.alloc(1025, 97)] });
    expect(elsewhere.status).toBe(413);
  });

  it('refuses JSON nested too deeply with a French 400, and passes flat JSON on', async () => {
    const deep = await request(url, {
      headers: { 'content-type': 'application/json' },
      body: [Buffer.from(`{"a":${'['.repeat(5)}${']'.repeat(5)}}`)],
    });
    expect(deep.status).toBe(400);
    expect(deep.text).toBe(JSON_TOO_DEEP_MESSAGE);
    const flat = await request(url, {
      headers: { 'content-type': 'application/json' },
      body: [Buffer.from('{"name":"[[[[[[[[","n":[[1]]}')],
    });
    expect(flat.status).toBe(200);
    expect(JSON.parse(flat.text).bytes).toBe(29);
  });

  it.each(['TRACE', 'PROPFIND', 'LINK'])('answers %s with a French 405 naming the allowed methods', async (method) => {
    const answer = await request(url, { method });
    expect(answer.status).toBe(405);
    expect(answer.text).toBe(METHOD_NOT_ALLOWED_MESSAGE);
    expect(answer.headers.allow).toContain('POST');
  });
});
