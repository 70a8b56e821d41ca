import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** Marks the header's top-level menus: native disclosures, <details data-menu> with their <summary>. */
export const MENU_ATTRIBUTE = 'data-menu';

function openMenus(root: HTMLElement): HTMLDetailsElement[] {
  return [...root.querySelectorAll<HTMLDetailsElement>(`details[${MENU_ATTRIBUTE}][open]`)];
}

/**
 * The header's menus open and close natively, without JavaScript (<details>, one open at a time by
 * their shared `name`). Once React runs, this adds what a menu is expected to do beyond that:
 * Escape closes it and gives the focus back to its button; a click or the focus elsewhere closes
 * it; following one of its links closes it (a client-side navigation keeps the header mounted).
 * Listeners on the document, no second rendering of the menus: the same elements before and after
 * hydration.
 */
export function useHeaderMenus(): RefObject<HTMLElement | null> {
  const headerRef = useRef<HTMLElement>(null);
  const { key } = useLocation();

  useEffect(() => {
    // A new location (the first one included): whatever menu was open has done its job.
    void key;
    const header = headerRef.current;
    if (header) for (const menu of openMenus(header)) menu.open = false;
  }, [key]);

  useEffect(() => {
    const header = headerRef.current;
    if (!header) return;
    const closeMenusOutside = (event: Event) => {
      const target = event.target instanceof Node ? event.target : null;
      for (const menu of openMenus(header)) {
        if (!target || !menu.contains(target)) menu.open = false;
      }
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      for (const menu of openMenus(header)) {
        const hadFocus = menu.contains(document.activeElement);
        menu.open = false;
        if (hadFocus) menu.querySelector('summary')?.focus();
      }
    };
    document.addEventListener('pointerdown', closeMenusOutside);
    document.addEventListener('focusin', closeMenusOutside);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', closeMenusOutside);
      document.removeEventListener('focusin', closeMenusOutside);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, []);

  return headerRef;
}
