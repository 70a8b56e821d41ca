import tsconfigPaths from 'vite-tsconfig-paths';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './tests/support/sequencer';

/*
 * Four projects, one run (`npm test`):
 *  - unit: pure modules (app/domain) and components, no I/O (no PostgreSQL either);
 *  - integration: server modules on a real PostgreSQL, each test file in its own database cloned
 *    from a migrated template;
 *  - e2e: the built app served by the real server, driven over HTTP and in Chromium;
 *  - resilience: the built server under faults (SIGKILL mid-load, SMTP peer down, PostgreSQL
 *    stopped under the app), each file bounded well under two minutes (docs/operations.md).
 */
/*
 * Scheduling on 2 cores (docs/testing.md): unit, integration and e2e form one group (groupOrder 0)
 * served by one pool of two workers, so that the long e2e files start first and the short unit and
 * integration files fill the gaps: no core waits for a project to finish. Resilience comes after,
 * alone, one file at a time: its tests measure time.
 */
const SHARED_POOL = { groupOrder: 0 };
const WORKERS = 2;

export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    // Longest files first, from the durations of a whole run (tests/support/sequencer.ts).
    sequence: { sequencer: DurationSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          sequence: SHARED_POOL,
          maxWorkers: WORKERS,
          include: ['app/domain/**/*.test.{ts,tsx}', 'app/components/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          sequence: SHARED_POOL,
          maxWorkers: WORKERS,
          include: [
            'app/server/**/*.test.ts',
            'server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'tests/integration/**/*.test.ts',
          ],
          globalSetup: ['tests/support/global-setup.ts'],
          isolate: false,
          setupFiles: ['tests/support/fresh-file.ts', 'tests/support/database-per-file.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          sequence: SHARED_POOL,
          globalSetup: [
            'tests/support/global-setup.ts',
            'tests/support/global-build.ts',
            // One Chromium for the run and a server per worker that most files share (docs/testing.md).
            'tests/support/shop-pool.ts',
          ],
          include: ['tests/e2e/**/*.test.ts'],
          isolate: false,
          setupFiles: ['tests/support/fresh-file.ts', 'tests/support/bounded-fetch.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll waits for what a user waits for (a server round trip, an e-mail): its default
          // of 1 s failed under a loaded 2-core machine; a real failure still fails, 15 s later.
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time, each on its worker's shared server (or its own), in the one Chromium.
          maxWorkers: WORKERS,
        },
      },
      {
        extends: true,
        test: {
          name: 'resilience',
          sequence: { groupOrder: 1 },
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
