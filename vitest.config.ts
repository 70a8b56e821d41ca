import fs from 'node:fs';
import path from 'node:path';
import tsconfigPaths from 'vite-tsconfig-paths';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './tests/support/sequencer';

/*
 * Four kinds of test, one run (`npm test`):
 *  - unit: pure modules (app/domain) and components, no I/O (no PostgreSQL either);
 *  - integration: server modules on a real PostgreSQL, each test file in its own database cloned
 *    from a migrated template;
 *  - e2e: the built app served by the real server, driven over HTTP and in Chromium;
 *  - resilience and resilience-timed: the built server under faults (SIGKILL mid-load, SMTP peer
 *    down, PostgreSQL stopped under the app), each file bounded well under two minutes
 *    (docs/operations.md).
 */
/*
 * Scheduling on 2 cores (docs/testing.md): unit, integration, e2e and resilience form one group
 * (groupOrder 0) served by one pool of two workers, so that the long files start first and the
 * short ones fill the gaps: no core waits for a project to finish. The timed resilience files come
 * after, alone, one at a time.
 */
const SHARED_POOL = { groupOrder: 0 };
/*
 * The resilience files whose assertions measure time (an outage seen within 9 s and over within 5 s,
 * a price seen on the other instance within 2 s, answers under a second during a flood): they run
 * after the rest, alone. The others (SIGKILL mid-checkout, a backup restored, the SMTP peer down)
 * are bounded by timeouts only, and spend most of their time waiting (a retry 30 s after a failure):
 * they share the pool with the other projects. The list is a file that .ci/summary.mjs reads too.
 */
const TIMED_RESILIENCE: string[] = JSON.parse(
  fs.readFileSync(path.join(import.meta.dirname, 'tests/resilience/timed.json'), 'utf8'),
);
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
          // Pure code: a worker keeps its modules from one file to the next (a fresh one per file
          // spent 14 s importing for 6 s of tests); fresh-file.ts still re-evaluates the shop's own.
          isolate: false,
          setupFiles: ['tests/support/fresh-file.ts'],
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
          sequence: SHARED_POOL,
          maxWorkers: WORKERS,
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/global-build.ts'],
          include: ['tests/resilience/**/*.test.ts'],
          exclude: [...TIMED_RESILIENCE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'resilience-timed',
          sequence: { groupOrder: 1 },
          globalSetup: ['tests/support/global-setup.ts', 'tests/support/global-build.ts'],
          include: [...TIMED_RESILIENCE],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // A restart's delay, a flood's memory and answer times: one file at a time, after the rest.
          maxWorkers: 1,
        },
      },
    ],
  },
});
