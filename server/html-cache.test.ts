import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlCache } from './html-cache';
import { cspNonce, securityHeaders } from './security';

/*
 * The gzip copy of a cached page, built around each hit's nonce (see the top of html-cache.ts),
 * decoded by zlib as a browser would: it must give back the page with this hit's nonce exactly.
 */

let server: http.Server;
let url: string;

/** A page with its nonce in several places, some at the very start and end, and compressible text. */
function render(nonce: string): string {
  const filler = Array.from({ length: 400 }, (_, i) => `<p>Diapositive n° ${i} : été 1978, Orléans</p>`).join('');
  return `${nonce}<!DOCTYPE html><html lang="fr"><head><script nonce="${nonce}">1</script></head><body>${filler}<script nonce="${nonce}">2</script>${nonce}${nonce}</body></html>${nonce}`;
}

beforeAll(async () => {
  const app = express();
  app.use(cspNonce);
  app.use(securityHeaders({ production: true, dev: false }));
  const cache = htmlCache({ versionKey: () => 'v1' });
  app.use(cache.serveFromCache);
  app.use(compression());
  app.use(cache.storeInCache);
  app.get('/{*splat}', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=60');
    res.type('html').send(render(res.locals.cspNonce as string));
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function get(path: string, headers: http.OutgoingHttpHeaders = {}) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer; status: number }>((resolve, reject) => {
    http
      .get(`${url}${path}`, { headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ headers: res.headers, body: Buffer.concat(chunks), status: res.statusCode ?? 0 }),
        );
      })
      .on('error', reject);
  });
}

function nonceOf(headers: http.IncomingHttpHeaders): string {
  return /'nonce-([^']+)'/.exec(String(headers['content-security-policy']))?.[1] ?? '';
}

describe('gzip copies of cached pages', () => {
  it('decode to the page with the hit’s own nonce, every time', async () => {
    await get('/page');
    for (let i = 0; i < 5; i++) {
      const hit = await get('/page', { 'accept-encoding': 'gzip, deflate, br' });
      expect(hit.headers['x-cache']).toBe('HIT');
      expect(hit.headers['content-encoding']).toBe('gzip');
      expect(hit.headers.vary).toMatch(/Accept-Encoding/i);
      expect(Number(hit.headers['content-length'])).toBe(hit.body.length);
      const nonce = nonceOf(hit.headers);
      // gunzipSync checks the CRC-32 and the length of the trailer.
      expect(zlib.gunzipSync(hit.body).toString('utf8')).toBe(render(nonce));
      // Compressed: well under the page's size.
      expect(hit.body.length).toBeLessThan(Buffer.byteLength(render(nonce)) / 4);
    }
  });

  it('serves the page as it is to a client that accepts no gzip, with its own validator', async () => {
    await get('/autre');
    const plain = await get('/autre', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toBe(render(nonceOf(plain.headers)));
    const gzip = await get('/autre', { 'accept-encoding': 'gzip' });
    expect(gzip.headers.etag).not.toBe(plain.headers.etag);
    const revalidated = await get('/autre', { 'accept-encoding': 'gzip', 'if-none-match': String(gzip.headers.etag) });
    expect(revalidated.status).toBe(304);
  });
});
