import { afterAll, vi } from 'vitest';

/*
 * First setup file of the projects that run several test files in one worker (`isolate: false`,
 * docs/testing.md). A fresh worker process per file cost 6 to 33 s of module loading for each
 * e2e file (Playwright's client, sharp, ExcelJS, the schema…). Here a worker keeps Node's cache of
 * the packages, and each file still starts from the state a fresh worker would give it:
 *  - the shop's own modules are evaluated again (their module-level state: the database pool
 *    made from DATABASE_URL, the parsed environment, the file storage, is this file's, not the
 *    previous file's);
 *  - process.env is put back as it was when the file started (files point DATABASE_URL, APP_SECRET
 *    and DATA_DIR at their server).
 */
const atStart = { ...process.env };

afterAll(() => {
  vi.resetModules();
  for (const key of Object.keys(process.env)) if (!(key in atStart)) delete process.env[key];
  Object.assign(process.env, atStart);
});
