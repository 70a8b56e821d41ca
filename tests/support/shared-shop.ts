import type { Browser } from 'playwright-core';
import { test as base, inject } from 'vitest';
import { launchBrowser } from './browser';
import type { SharedServerInfo } from './shop-pool';

/**
 * A production server this test file borrows from the run's pool (tests/support/shop-pool.ts),
 * shared with the other files this worker runs before and after it (never at the same time).
 * Its database is not empty: a test creates its own users, orders and data, and counts only what
 * it made (`where "to" = $1`, `where order_id = $1`, or before/after differences).
 * A file that needs an empty shop (no administrator yet), changes what every page shows (the
 * price list, the shop's settings, its SMTP configuration), reads the server's output, stops or
 * restarts it, starts its own with `startServer()` (tests/support/server.ts).
 */
export interface SharedServer extends SharedServerInfo {
  /** Nothing to do: the pool stops its servers at the end of the run. Kept so that files read alike. */
  dispose(): Promise<void>;
}

function poolUrl(): string {
  const pool = inject('shopPoolUrl');
  if (!pool) throw new Error('shared servers are for the e2e project (its globalSetup tests/support/shop-pool.ts)');
  return pool;
}

/** This worker's place in the pool (1 to maxWorkers): files with the same slot never run at the same time. */
function slot(): string {
  return process.env.VITEST_POOL_ID ?? '1';
}

/** Sends the worker's shared servers' e-mails (the relay of its slot) to this file's SMTP peer. */
export async function routeSharedSmtp(port: number): Promise<void> {
  const res = await fetch(`${poolUrl()}/smtp-route?slot=${slot()}&port=${port}`);
  if (!res.ok) throw new Error(`the SMTP relay was not set: ${await res.text()}`);
}

/** Environments asked for by several files, so that they share a server. */
export const SANDBOX_ENV = { PAYMENT_SANDBOX: 'on' } as const;

/**
 * This worker's server for `env` (the variables that differ from the defaults startServer uses),
 * started by the pool on first demand.
 */
export async function sharedServer(
  env: Record<string, string> = {},
  { smtp = false }: { smtp?: boolean } = {},
): Promise<SharedServer> {
  const res = await fetch(
    `${poolUrl()}/server?slot=${slot()}&env=${encodeURIComponent(JSON.stringify(env))}${smtp ? '&smtp=1' : ''}`,
  );
  if (!res.ok) throw new Error(`the shared server did not start: ${await res.text()}`);
  const info = (await res.json()) as SharedServerInfo;
  return { ...info, dispose: async () => {} };
}

/** What a shared server printed so far (for a failure's report). */
export async function sharedServerOutput(server: SharedServerInfo): Promise<string> {
  const res = await fetch(`${poolUrl()}/output?url=${encodeURIComponent(server.url)}`);
  return res.text();
}

/**
 * For new e2e tests: `test` with the worker's shared server and the run's browser as fixtures.
 *
 *   import { test } from '../support/shared-shop';
 *   test('shows the cart', async ({ shop, browser }) => {
 *     const page = await openPage(browser, `${shop.url}/panier`);
 *     ...
 *   });
 *
 * `sandboxShop` is the worker's server with PAYMENT_SANDBOX=on. Worker-scoped: set up once per
 * file (tests/support/fresh-file.ts evaluates this module again for each file) and reused by all
 * its tests.
 */
export const test = base
  .extend('shop', { scope: 'worker' }, () => sharedServer())
  .extend('sandboxShop', { scope: 'worker' }, () => sharedServer(SANDBOX_ENV))
  // biome-ignore lint/correctness/noEmptyPattern: Vitest reads a fixture's dependencies from this pattern.
  .extend('browser', { scope: 'worker' }, async ({}, { onCleanup }): Promise<Browser> => {
    const browser = await launchBrowser();
    onCleanup(() => browser.close());
    return browser;
  });
