import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressedAssets } from './precompressed-assets.server';

const SCRIPT = 'export const words = "Numérisation de vos souvenirs";\n'.repeat(40);
let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soovenirs-assets-'));
  fs.writeFileSync(path.join(dir, 'page-abc.js'), SCRIPT);
  fs.writeFileSync(path.join(dir, 'page-abc.js.br'), zlib.brotliCompressSync(SCRIPT));
  fs.writeFileSync(path.join(dir, 'plain-abc.js'), SCRIPT);
  const app = express();
  app.use('/assets', precompressedAssets(dir));
  app.use('/assets', express.static(dir, { fallthrough: false }));
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/assets`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('precompressed assets', () => {
  it('sends the Brotli copy to a browser that accepts Brotli, as JavaScript cached for a year', async () => {
    const res = await fetch(`${base}/page-abc.js`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    // fetch decodes Brotli: the browser gets the script itself.
    expect(await res.text()).toBe(SCRIPT);
  });

  it('leaves other clients, and files without a copy, to the static files', async () => {
    const gzipOnly = await fetch(`${base}/page-abc.js`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzipOnly.headers.get('content-encoding')).toBeNull();
    expect(gzipOnly.headers.get('vary')).toBe('Accept-Encoding');
    expect(await gzipOnly.text()).toBe(SCRIPT);
    const noCopy = await fetch(`${base}/plain-abc.js`, { headers: { 'accept-encoding': 'br' } });
    expect(noCopy.headers.get('content-encoding')).toBeNull();
    expect(await noCopy.text()).toBe(SCRIPT);
  });

  it('answers 404 for an unknown asset and serves no copy for a path outside the folder', async () => {
    expect((await fetch(`${base}/missing-abc.js`, { headers: { 'accept-encoding': 'br' } })).status).toBe(404);
    const raw = await fetch(`${base}/..%2Fpage-abc.js`, { headers: { 'accept-encoding': 'br' } });
    expect(raw.headers.get('content-encoding')).toBeNull();
  });
});
