// @ts-check
/*
 * `npm start` (`node server/start.js`): plain JavaScript that Node runs as it is, no TypeScript
 * loader. It makes sure build/ was made from the sources on disk (building it when not), then loads
 * the server bundle, build/server/index.js, which holds everything else once: the startup
 * (server/serve.ts), the Express app, the background workers and the pages (docs/decisions/033).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { buildState, forgetBuildStamp } from './build-stamp.js';

// React picks its development or production build from NODE_ENV when first imported, so NODE_ENV is
// settled here, before the bundle (and React with it) is loaded.
process.env.NODE_ENV ??= 'production';

// Node 22 and 24 keep the bundle's compiled code on disk (in the system's temporary folder) between
// starts: a restart after a deploy, and each server the tests start, skips compiling 1.7 MB again.
// Called only if present: @types/node may lag behind the runtime's API.
/** @type {{ enableCompileCache?: () => unknown }} */ (/** @type {unknown} */ (nodeModule)).enableCompileCache?.();

const buildEntry = path.resolve('build/server/index.js');

/**
 * @param {string} message
 * @returns {never}
 */
function fail(message) {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/**
 * Builds when build/ is missing or was made from other sources (server/build-stamp.js): after an
 * update the new code is served, as the new migrations are run. The test helpers set
 * REBUILD_WHEN_STALE=off to serve the build they made, whatever is edited meanwhile.
 */
function ensureFreshBuild() {
  const buildDir = path.resolve('build');
  const state =
    process.env.REBUILD_WHEN_STALE === 'off' && fs.existsSync(buildEntry) ? 'fresh' : buildState(process.cwd());
  if (state === 'fresh') return;
  // The app's logger is in the bundle, which does not exist yet: a line of the same JSON form. An
  // invalid LOG_LEVEL is reported by the bundle's check of the environment, not here.
  const level = process.env.LOG_LEVEL ?? 'info';
  pino({ base: undefined, level: level in pino.levels.values || level === 'silent' ? level : 'info' }).info(
    state === 'missing'
      ? 'no build found: building the app (npm run build)'
      : 'build/ is older than the sources: rebuilding',
  );
  forgetBuildStamp(buildDir);
  const result = spawnSync(path.resolve('node_modules/.bin/react-router'), ['build'], { stdio: 'inherit' });
  if (result.status !== 0) fail('La construction de l’application a échoué : voir les messages ci-dessus.');
}

ensureFreshBuild();

// Traces only when an OTLP endpoint is configured, and before the bundle: the instrumentations patch
// http, express and pg as they load (server/tracing.js).
if (process.env.OTEL_EXPORTER_OTLP_ENDPOINT) await import('./tracing.js');

/** @type {typeof import('./serve')} */
let bundle;
try {
  bundle = await import(pathToFileURL(buildEntry).href);
} catch (error) {
  // Nothing is open yet: the message of server/start-failure.ts, without anything to undo.
  fail(`Soovenirs n’a pas pu démarrer\u00A0: ${error instanceof Error ? error.message : String(error)}`);
}
try {
  await bundle.serve();
} catch (error) {
  // Whatever failed after the database opened, it is stopped before the process exits.
  await bundle.failStart(bundle.startFailure(error), error);
}
