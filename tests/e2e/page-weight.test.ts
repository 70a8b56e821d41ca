import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';

/*
 * The JavaScript a public page makes a phone download before it works (issue 17, point 13): every
 * script the page's HTML names (its module preloads and the router's inline module), with the
 * chunks those import in turn, fetched from the real server as a browser asks for them (Brotli or
 * gzip, whatever the server answers) and counted as transferred. Bytes, not timings: the same build
 * gives the same figures on a busy machine.
 */

const KIB = 1024;

/**
 * Per page, the most JavaScript it may transfer (what it transfers now, plus ~3 KiB). The issue's
 * goal is 120 KiB; React DOM and React Router alone transfer ~95 KiB, and what is left above the
 * goal is listed in docs/lighthouse.md (tailwind-merge, ~8 KiB; on /contact, Conform's helpers).
 * These ceilings hold what was gained: a change that brings back a heavy library on a public page
 * (Radix's back-office parts, sonner, zod…) fails here.
 */
const BUDGET_KIB: Record<string, number> = {
  '/': 132,
  '/services': 131,
  '/services/photos': 128,
  '/blog': 127,
  '/contact': 139,
};

/**
 * The scripts a page's HTML loads: its module preloads (as links, or in the after-paint loader of
 * app/server/rendering/scripts-after-first-paint.server.ts) and the router's inline module's
 * imports. The inline route manifest also names other pages' modules: those load only on a visit.
 */
function scriptsLoadedBy(html: string): string[] {
  const links = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1] as string);
  const afterPaint = [...html.matchAll(/(\["\/assets\/[^\]]*\])\.forEach/g)].flatMap(
    (match) => JSON.parse(match[1] as string) as string[],
  );
  const imports = [...html.matchAll(/\bimport\b[^;"]*?"(\/assets\/[\w.-]+\.js)"/g)].map((match) => match[1] as string);
  return [...new Set([...links, ...afterPaint, ...imports])];
}

/** The chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`); dynamic imports load later. */
function staticImportsOf(code: string, href: string): string[] {
  const base = new URL(href, 'http://x');
  return [...code.matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[\w.-]+\.js)["']/g)].map(
    (match) => new URL(match[1] as string, base).pathname,
  );
}

/** GETs a URL as Chromium does; resolves to the bytes on the wire and the decoded text. */
interface Download {
  transferred: number;
  encoding: string;
  text: string;
  headers: http.IncomingHttpHeaders;
}

function download(url: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`${url}: HTTP ${res.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'] ?? 'identity';
          resolve({ transferred: body.length, encoding, text: decode(body, encoding), headers: res.headers });
        });
      })
      .on('error', reject);
  });
}

function decode(body: Buffer, encoding: string): string {
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(body).toString('utf8');
  return body.toString('utf8');
}

interface PageWeight {
  bytes: number;
  scripts: Map<string, { transferred: number; encoding: string }>;
}

async function javascriptOf(server: TestServer, pagePath: string): Promise<PageWeight> {
  const page = await download(`${server.url}${pagePath}`);
  const queue = scriptsLoadedBy(page.text);
  const scripts = new Map<string, { transferred: number; encoding: string }>();
  while (queue.length > 0) {
    const href = queue.shift() as string;
    if (scripts.has(href)) continue;
    const script = await download(`${server.url}${href}`);
    scripts.set(href, { transferred: script.transferred, encoding: script.encoding });
    queue.push(...staticImportsOf(script.text, href));
  }
  const bytes = [...scripts.values()].reduce((sum, script) => sum + script.transferred, 0);
  return { bytes, scripts };
}

function describeWeight({ scripts }: PageWeight): string {
  return [...scripts.entries()]
    .sort(([, a], [, b]) => b.transferred - a.transferred)
    .map(([href, s]) => `${(s.transferred / KIB).toFixed(1)} KiB ${s.encoding} ${href}`)
    .join('\n');
}

describe('JavaScript of the public pages', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('sends its scripts compressed, Brotli copies made at build time cached for a year', async () => {
    const { scripts } = await javascriptOf(server, '/');
    expect(scripts.size).toBeGreaterThan(3);
    for (const [href, script] of scripts) {
      // The router's tiny entry (~200 bytes) is below compression's threshold.
      if (script.transferred > 1024) expect(script.encoding, href).toBe('br');
    }
    const framework = [...scripts.keys()].find((href) => href.includes('/framework-')) as string;
    const { headers, text } = await download(`${server.url}${framework}`);
    expect(headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(headers.vary).toMatch(/Accept-Encoding/i);
    expect(text).toContain('react');
  });

  it.each(Object.entries(BUDGET_KIB))('%s stays within %d KiB of JavaScript', async (pagePath, budget) => {
    const weight = await javascriptOf(server, pagePath);
    expect(weight.bytes / KIB, describeWeight(weight)).toBeLessThanOrEqual(budget);
  });

  it('does not make the public pages load the back office’s components nor zod', async () => {
    for (const pagePath of Object.keys(BUDGET_KIB)) {
      const { scripts } = await javascriptOf(server, pagePath);
      const code = await Promise.all(
        [...scripts.keys()].map(async (href) => (await download(`${server.url}${href}`)).text),
      );
      // Radix's Select, Tabs and Popover, and sonner, only serve the account and the back office;
      // zod checks the forms on the server ($ZodObject: its object schemas).
      for (const marker of ['SelectTrigger', 'TabsTrigger', 'PopoverContent', 'data-sonner-toaster', '$ZodObject']) {
        expect(
          code.some((text) => text.includes(marker)),
          `${marker} on ${pagePath}`,
        ).toBe(false);
      }
    }
  });
});
