import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '~/server/db/embedded.server';
import { launchBrowser, openPage } from '../support/browser';
import { createTestDatabase, dropTestDatabase } from '../support/databases';
import { waitForHealth } from '../support/server';

/*
 * `npm run dev` as a new developer runs it (server/dev.ts: Express with Vite in middleware mode):
 * the configurator hydrates and answers a choice with an estimate. openPage fails the test on any
 * console error, « 504 (Outdated Optimize Dep) » included.
 */

const root = path.resolve(import.meta.dirname, '../..');

describe('npm run dev', () => {
  let child: ChildProcess;
  let output = '';
  let url: string;
  let browser: Browser;
  let database: { name: string; url: string };
  let dataDir: string;

  beforeAll(async () => {
    database = await createTestDatabase(inject('pgAdminUrl'), inject('pgTemplate'));
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-dev-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // Vitest's own variables (Vite sets BASE_URL=/, MODE, DEV…) are not the dev server's.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(
        ([key]) => !['BASE_URL', 'MODE', 'DEV', 'PROD', 'SSR', 'VITEST'].includes(key),
      ),
    );
    child = spawn(process.execPath, ['--import', 'tsx', 'server/dev.ts'], {
      cwd: root,
      env: {
        ...inherited,
        NODE_ENV: 'development',
        LOG_LEVEL: 'warn',
        PORT: String(port),
        HOST: '127.0.0.1',
        BASE_URL: url,
        DATABASE_URL: database.url,
        DATA_DIR: dataDir,
        APP_SECRET: randomBytes(32).toString('hex'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    [browser] = await Promise.all([launchBrowser(), waitForHealth(url, child, () => output, 90_000)]);
  });
  afterAll(async () => {
    await browser?.close();
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    if (database) await dropTestDatabase(inject('pgAdminUrl'), database.name);
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('hydrates the configurator, which shows an estimate after a choice', async () => {
    // Vite transforms the modules on this first visit: slow on a busy machine, hence the long wait.
    const page = await openPage(browser);
    page.setDefaultTimeout(60_000);
    await page.goto(`${url}/configurateur`, { timeout: 90_000 });
    const photos = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Photos papier\s/ }) });
    await photos.getByRole('checkbox').check();
    await photos.getByLabel('Quantité').fill('100');
    await expect
      .poll(async () => (await page.locator('#estimate-total [data-total-cents]').innerText()).replace(/\s/g, ' '), {
        timeout: 30_000,
      })
      .toBe('35,00 €');
  }, 150_000);
});
