import { describe, expect, it } from 'vitest';
import { documentOnlyScript } from './page-enhancements';

/*
 * The inline script is made of the functions' own source: it must be one valid script that needs
 * nothing but the page (a function that used an import or a module constant would throw a
 * ReferenceError in the browser, not here, unless it is run). Run against the smallest stand-in
 * of a page; what it does in a real page is tested in Chromium (tests/e2e/site-frame.test.ts,
 * tests/e2e/site-pages.test.ts).
 */

interface Listener {
  type: string;
}

function standIn() {
  const listeners: Listener[] = [];
  const target = () => ({
    addEventListener: (type: string) => listeners.push({ type }),
    removeEventListener: () => {},
  });
  const header = { dataset: {} as Record<string, string>, querySelectorAll: () => [] };
  const document = {
    ...target(),
    activeElement: null,
    querySelector: (selector: string) => (selector === '[data-site-header]' ? header : null),
    querySelectorAll: () => [],
  };
  const window = { ...target(), scrollY: 40, requestAnimationFrame: () => 1, cancelAnimationFrame: () => {} };
  return { document, window, header, listeners };
}

describe('the inline script of the pages sent as documents', () => {
  it('is one script that runs on a page with nothing from our modules', () => {
    const page = standIn();
    const run = new Function('document', 'window', 'Node', documentOnlyScript());
    run(page.document, page.window, class {});
    // The header knows the page is scrolled, and listens for the scroll, clicks, focus and Escape.
    expect(page.header.dataset.scrolled).toBe('true');
    expect(page.listeners.map((listener) => listener.type).sort()).toEqual([
      'focusin',
      'keydown',
      'pointerdown',
      'scroll',
    ]);
  });

  it('stays small', () => {
    expect(Buffer.byteLength(documentOnlyScript())).toBeLessThan(4096);
  });
});
