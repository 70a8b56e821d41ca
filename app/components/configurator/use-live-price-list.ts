import { useEffect, useRef } from 'react';
import { useRevalidator } from 'react-router';

/*
 * Live prices (replacing the prototype's 'pricing-data-updated' window event): a page that shows
 * prices passes the version of the price list its loader returned. When the back office publishes
 * a new list, the page reloads its data without a restart or a full reload:
 *  - when the window regains focus or the tab becomes visible, and every 60 s while it is visible
 *    (the lifetime of a cached price list), it asks GET /api/price-list for the active
 *    version (an ETag makes the usual answer an empty 304) and revalidates when it differs;
 *  - across the tabs of a browser, a BroadcastChannel carries the newest version a tab has seen,
 *    so the other tabs revalidate at once (the back office's tab announces its publication too).
 */

export const PRICE_LIST_CHANNEL = 'soovenirs:price-list';
export const PRICE_LIST_POLL_MS = 60_000;
export const PRICE_LIST_ENDPOINT = '/api/price-list';

export interface PriceListMessage {
  type: 'price-list';
  version: number;
}

/** Tells the other tabs of this browser that a price list version exists (e.g. after publishing one). */
export function announcePriceListVersion(version: number): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(PRICE_LIST_CHANNEL);
  channel.postMessage({ type: 'price-list', version } satisfies PriceListMessage);
  channel.close();
}

export function useLivePriceList(version: number): void {
  const revalidator = useRevalidator();
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;
  const current = useRef(version);
  current.current = version;

  // Every version this tab learns of is announced, so that older tabs catch up.
  useEffect(() => {
    announcePriceListVersion(version);
  }, [version]);

  useEffect(() => {
    let checking = false;
    let etag: string | null = null;
    let known = current.current;

    const check = async () => {
      if (checking || document.visibilityState !== 'visible') return;
      checking = true;
      try {
        const response = await fetch(PRICE_LIST_ENDPOINT, {
          headers: {
            accept: 'application/json',
            ...(etag && known === current.current ? { 'if-none-match': etag } : {}),
          },
          cache: 'no-store',
        });
        if (response.status === 200) {
          const body = (await response.json()) as { version?: unknown };
          etag = response.headers.get('etag');
          if (typeof body.version === 'number') {
            known = body.version;
            if (body.version !== current.current) revalidate.current();
          }
        }
      } catch {
        // Offline or the server restarting: the next focus or tick tries again.
      } finally {
        checking = false;
      }
    };

    const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(PRICE_LIST_CHANNEL);
    if (channel) {
      channel.onmessage = (event: MessageEvent<PriceListMessage>) => {
        const data = event.data;
        if (data?.type === 'price-list' && typeof data.version === 'number' && data.version > current.current) {
          revalidate.current();
        }
      };
    }
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    const onFocus = () => void check();
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onVisible);
    const timer = window.setInterval(() => void check(), PRICE_LIST_POLL_MS);
    return () => {
      channel?.close();
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onVisible);
      window.clearInterval(timer);
    };
  }, []);
}
