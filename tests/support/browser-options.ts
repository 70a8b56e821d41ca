import { existsSync } from 'node:fs';

/**
 * Debian's Chromium, headless, with nothing that would try to reach the internet. Its headless
 * shell (`apt-get install chromium-headless-shell`, the same engine without the browser's window
 * layer) costs about a fifth less CPU over the e2e files (docs/decisions/036): it is used when
 * installed, the whole browser otherwise; CHROMIUM_PATH names another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
