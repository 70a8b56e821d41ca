import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The e2e tests run the built app: build it once per run (CI builds before and sets E2E_SKIP_BUILD). */
export default function build() {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  const root = path.resolve(import.meta.dirname, '../..');
  const result = spawnSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: root,
    stdio: 'inherit',
    // Vitest runs with NODE_ENV=test; the served app is the production build, as `npm start` makes.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error('react-router build failed');
}
