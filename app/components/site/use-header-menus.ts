import { type RefObject, useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { enhanceHeader, OPEN_MENUS_SELECTOR, SCROLL_THRESHOLD } from './page-enhancements';

/**
 * The header on a page React renders: page-enhancements.ts's enhanceHeader (the background once
 * scrolled, Escape and a click elsewhere closing a menu), the same code the pages without a
 * framework run inline; and, since a client-side navigation keeps the header mounted, a new
 * location closes whatever menu was open. No second rendering of the menus: the same elements
 * before and after hydration.
 */
export function useHeaderMenus(): RefObject<HTMLElement | null> {
  const headerRef = useRef<HTMLElement>(null);
  const { key } = useLocation();

  useEffect(() => {
    // A new location (the first one included): whatever menu was open has done its job.
    void key;
    const header = headerRef.current;
    if (header) for (const menu of header.querySelectorAll<HTMLDetailsElement>(OPEN_MENUS_SELECTOR)) menu.open = false;
  }, [key]);

  useEffect(() => {
    if (headerRef.current) return enhanceHeader(headerRef.current, SCROLL_THRESHOLD, OPEN_MENUS_SELECTOR);
  }, []);

  return headerRef;
}
