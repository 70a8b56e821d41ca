import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/*
 * A public page is readable as soon as its HTML and CSS arrive; its JavaScript (React, the router,
 * the header's menus: ~200 KB) only makes it interactive. React Router asks for every module in
 * <head> at once, and on a slow mobile connection that download competes with the stylesheet and
 * the fonts and pushes the first paint back by more than a second. On these pages the scripts are
 * fetched right after the first paint instead: the same modules, the same hydration, one frame
 * later.
 */

const MODULE_PRELOAD = /<link rel="modulepreload" href="([^"]+)"[^>]*\/>/g;
const MODULE_SCRIPT = /<script\b([^>]*)\btype="module" async="">/;

/** The document with its module preloads and module script started after the first paint. */
export function startScriptsAfterFirstPaint(html: string, nonce: string): string {
  const hrefs = [...html.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string);
  if (hrefs.length === 0 || !MODULE_SCRIPT.test(html)) return html;
  // An inert script keeps the router's code; the loader runs it as a module once painted.
  const inert = html
    .replace(MODULE_PRELOAD, '')
    .replace(MODULE_SCRIPT, '<script$1type="text/plain" data-after-paint="">');
  const loader = `<script nonce="${nonce}">${loaderSource(hrefs)}</script>`;
  return inert.replace('</body>', `${loader}</body>`);
}

function loaderSource(hrefs: string[]): string {
  // requestAnimationFrame runs just before the first frame; the timeout, just after it is painted.
  return `requestAnimationFrame(function(){setTimeout(function(){var d=document,s=d.querySelector("script[data-after-paint]");${JSON.stringify(hrefs)}.forEach(function(h){var l=d.createElement("link");l.rel="modulepreload";l.href=h;l.nonce=s.nonce;d.head.appendChild(l)});var m=d.createElement("script");m.type="module";m.nonce=s.nonce;m.textContent=s.textContent;s.replaceWith(m)},0)})`;
}

/** Buffers the rendered document (these pages do not stream) and rewrites it as above. */
export function startScriptsAfterFirstPaintStream(nonce: string): Transform {
  const decoder = new StringDecoder('utf8');
  let html = '';
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      html += decoder.write(chunk);
      callback();
    },
    flush(callback) {
      callback(null, startScriptsAfterFirstPaint(html + decoder.end(), nonce));
    },
  });
}
