/*
 * What the site's frame and the home page do beyond their HTML and CSS, as plain DOM code. The
 * public site's pages load no framework (docs/decisions/018): there these functions run from one
 * inline script (documentOnlyScript); on the pages that hydrate, React's effects call the same
 * functions. Each function is serialised with `Function.prototype.toString` into that script, so it
 * may use nothing from outside its own body: no import, no module constant, no helper.
 */

/** Marks the header's top-level menus: native disclosures, <details data-menu> with their <summary>. */
export const MENU_ATTRIBUTE = 'data-menu';

/** Marks the site's header, for the inline script to find it. */
export const SITE_HEADER_ATTRIBUTE = 'data-site-header';

/** Marks the home page's figures (their <ul>). */
export const FIGURES_ATTRIBUTE = 'data-counting';

/** The counters run for 2000 ms once half of them is visible. */
export const COUNTER_DURATION_MS = 2000;
export const COUNTER_VISIBILITY = 0.5;

/** Past this many pixels of scroll the header gets its opaque background. */
export const SCROLL_THRESHOLD = 20;

/** The header's open menus. */
export const OPEN_MENUS_SELECTOR = `details[${MENU_ATTRIBUTE}][open]`;

/**
 * The header: `data-scrolled` once the page is scrolled past `threshold` (the CSS gives it its
 * background), and what a menu is expected to do beyond opening and closing natively: Escape closes
 * it and gives the focus back to its button, a click or the focus elsewhere closes it. Returns the
 * function that removes the listeners.
 */
export function enhanceHeader(header: HTMLElement, threshold: number, openMenusSelector: string): () => void {
  const openMenus = () => [...header.querySelectorAll<HTMLDetailsElement>(openMenusSelector)];
  let frame = 0;
  const update = () => {
    frame = 0;
    header.dataset.scrolled = window.scrollY > threshold ? 'true' : 'false';
  };
  const onScroll = () => {
    if (!frame) frame = window.requestAnimationFrame(update);
  };
  const closeMenusOutside = (event: Event) => {
    const target = event.target instanceof Node ? event.target : null;
    for (const menu of openMenus()) {
      if (!target || !menu.contains(target)) menu.open = false;
    }
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    for (const menu of openMenus()) {
      const hadFocus = menu.contains(document.activeElement);
      menu.open = false;
      if (hadFocus) menu.querySelector('summary')?.focus();
    }
  };
  // A reload half-way down the page starts opaque.
  update();
  window.addEventListener('scroll', onScroll, { passive: true });
  document.addEventListener('pointerdown', closeMenusOutside);
  document.addEventListener('focusin', closeMenusOutside);
  document.addEventListener('keydown', onKeyDown);
  return () => {
    window.removeEventListener('scroll', onScroll);
    document.removeEventListener('pointerdown', closeMenusOutside);
    document.removeEventListener('focusin', closeMenusOutside);
    document.removeEventListener('keydown', onKeyDown);
    if (frame) window.cancelAnimationFrame(frame);
  };
}

/**
 * The home page's figures. The server writes the real values (which stay the only ones read by
 * screen readers, in `.sr-only`); once the list is `visibility` visible, the shown digits
 * (`[data-value]`, with `data-suffix`) count up from zero in `duration` ms, unless the visitor
 * asked for reduced motion. `data-counting` says whether they are counting.
 */
export function animateFigures(list: HTMLElement, duration: number, visibility: number): () => void {
  if (typeof IntersectionObserver === 'undefined') return () => {};
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return () => {};
  const format = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 0 });
  const digits = [...list.querySelectorAll<HTMLElement>('[data-value]')];
  const show = (progress: number) => {
    const eased = 1 - (1 - progress) ** 3;
    for (const element of digits) {
      element.textContent = `${format.format(Math.round(Number(element.dataset.value) * eased))}${element.dataset.suffix ?? ''}`;
    }
  };
  let frame = 0;
  let start = 0;
  const tick = (time: number) => {
    start ||= time;
    const progress = Math.min(1, (time - start) / duration);
    show(progress);
    list.dataset.counting = progress < 1 ? 'true' : 'false';
    if (progress < 1) frame = window.requestAnimationFrame(tick);
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      show(0);
      list.dataset.counting = 'true';
      frame = window.requestAnimationFrame(tick);
    },
    { threshold: visibility },
  );
  observer.observe(list);
  return () => {
    observer.disconnect();
    window.cancelAnimationFrame(frame);
    show(1);
    list.dataset.counting = 'false';
  };
}

/** The inline script of a page that loads no framework: the functions above, on that page's elements. */
export function documentOnlyScript(): string {
  return [
    '(function(){',
    `var h=document.querySelector('[${SITE_HEADER_ATTRIBUTE}]');`,
    `if(h)(${enhanceHeader})(h,${SCROLL_THRESHOLD},${JSON.stringify(OPEN_MENUS_SELECTOR)});`,
    `document.querySelectorAll('[${FIGURES_ATTRIBUTE}]').forEach(function(l){(${animateFigures})(l,${COUNTER_DURATION_MS},${COUNTER_VISIBILITY})});`,
    '})()',
  ].join('');
}
