import tsconfigPaths from 'vite-tsconfig-paths';
import { defineConfig } from 'vitest/config';

/*
 * Three projects, one run (`npm test`):
 *  - unit: pure modules (app/domain), no I/O;
 *  - integration: server modules on a real PostgreSQL, each test file in its own database cloned
 *    from a migrated template;
 *  - e2e: the built app served by the real server, driven over HTTP and in Chromium;
 *  - resilience: the built server under faults (SIGKILL mid-load, SMTP peer down, PostgreSQL
 *    stopped under the app), each file bounded well under two minutes (docs/operations.md).
 */
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          include: ['app/domain/**/*.test.{ts,tsx}', 'app/components/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: [
            'app/server/**/*.test.ts',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          globalSetup: ['tests/support/global-setup.ts'],
          setupFiles: ['tests/support/database-per-file.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/global-build.ts'],
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for what a user waits for (a server round trip, an e-mail): its default
          // of 1 s failed under a loaded 2-core machine; a real failure still fails, 15 s later.
          expect: { poll: { timeout: 15_000 } },
          // Each file starts a server and a browser: two at a time suit a 2-core machine.
          maxWorkers: 2,
        },
      },
      {
        extends: true,
        test: {
          name: 'resilience',
          sequence: { groupOrder: 3 },
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/global-build.ts'],
          include: ['tests/resilience/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Load, outages and restarts measure time: one file at a time keeps them honest on 2 cores.
          maxWorkers: 1,
        },
      },
    ],
  },
});
