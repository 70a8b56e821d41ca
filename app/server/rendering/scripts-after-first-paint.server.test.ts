import { describe, expect, it } from 'vitest';
import { startScriptsAfterFirstPaint } from './scripts-after-first-paint.server';

const page = [
  '<!DOCTYPE html><html lang="fr"><head><link nonce="n0nce" rel="stylesheet" href="/assets/app.css"/>',
  '<link rel="modulepreload" href="/assets/entry.client.js" nonce="n0nce"/>',
  '<link rel="modulepreload" href="/assets/framework.js" nonce="n0nce"/></head>',
  '<body><main><h1>Numérisation de vos souvenirs</h1></main>',
  '<script nonce="n0nce">window.__reactRouterContext = {};</script>',
  '<script nonce="n0nce" type="module" async="">import * as route0 from "/assets/root.js";\nimport("/assets/entry.client.js");</script>',
  '</body></html>',
].join('');

describe('scripts after the first paint', () => {
  const html = startScriptsAfterFirstPaint(page, 'n0nce');

  it('leaves nothing in the document that the browser would fetch or run as a module before painting', () => {
    expect(html).not.toMatch(/<link[^>]*rel="modulepreload"/);
    expect(html).not.toMatch(/<script[^>]*type="module"/);
    expect(html).toContain('<link nonce="n0nce" rel="stylesheet" href="/assets/app.css"/>');
    expect(html).toContain('<h1>Numérisation de vos souvenirs</h1>');
  });

  it('keeps the router’s module code, inert, and a loader allowed by the page’s nonce', () => {
    expect(html).toContain(
      '<script nonce="n0nce" type="text/plain" data-after-paint="">import * as route0 from "/assets/root.js";',
    );
    expect(html).toMatch(
      /<script nonce="n0nce">requestAnimationFrame\(.*\["\/assets\/entry\.client\.js","\/assets\/framework\.js"\].*<\/script><\/body>/,
    );
  });

  it('leaves a document without router scripts as it is', () => {
    const plain = '<!DOCTYPE html><html><body><p>Hors ligne</p></body></html>';
    expect(startScriptsAfterFirstPaint(plain, 'n0nce')).toBe(plain);
  });
});
