// @ts-check
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/*
 * Whether build/ was made from the sources on disk. `react-router build` writes a fingerprint of
 * what it read into build/.stamp (react-router.config.ts, buildEnd); `npm start` compares it with the
 * sources and rebuilds when they differ, so that an update (git pull, a new release unpacked) is
 * never served from an old build while the migrations are read fresh.
 *
 * The fingerprint hashes contents, not dates: a checkout or an archive may keep old dates on new
 * files. The ~500 files (3,5 MB) hash in 50 to 100 ms.
 *
 * Plain JavaScript (types in JSDoc): `npm start` (server/start.js) runs it with Node alone, before
 * any build exists, and the build's configuration reads it too.
 */

/**
 * What the build consumes, relative to the project root. content/ is read at run time, not built;
 * server/ is built: the Express server and the startup are in the server bundle (server/serve.ts).
 */
export const BUILD_INPUTS = [
  'app',
  'server',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
  'package-lock.json',
];

export const STAMP_FILE = '.stamp';

/** Tests beside the code are not part of the build: editing one does not make build/ stale. */
const notBuilt = /\.test\.tsx?$/;

/**
 * @param {string} root
 * @param {string} relative
 * @returns {Generator<string>}
 */
function* filesUnder(root, relative) {
  const full = path.join(root, relative);
  /** @type {fs.Dirent[]} */
  let entries;
  try {
    entries = fs.readdirSync(full, { withFileTypes: true });
  } catch (error) {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'ENOTDIR') {
      yield relative;
      return;
    }
    if (code === 'ENOENT') return;
    throw error;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, child);
    else if (entry.isFile() && !notBuilt.test(entry.name)) yield child;
  }
}

/**
 * A hash of the build's inputs under `root`: their paths and contents.
 * @param {string} root
 * @returns {string}
 */
export function sourcesFingerprint(root) {
  const hash = createHash('sha256');
  for (const input of BUILD_INPUTS) {
    for (const file of filesUnder(root, input)) {
      hash.update(file.split(path.sep).join('/'));
      hash.update('\0');
      hash.update(fs.readFileSync(path.join(root, file)));
      hash.update('\0');
    }
  }
  return hash.digest('hex');
}

/**
 * @param {string} buildDir
 * @param {string} fingerprint
 */
export function writeBuildStamp(buildDir, fingerprint) {
  fs.writeFileSync(path.join(buildDir, STAMP_FILE), `${fingerprint}\n`);
}

/**
 * A build made before the stamp existed, or interrupted, counts as stale.
 * @param {string} buildDir
 */
export function forgetBuildStamp(buildDir) {
  fs.rmSync(path.join(buildDir, STAMP_FILE), { force: true });
}

/** @typedef {'missing' | 'stale' | 'fresh'} BuildState */

/**
 * @param {string} root
 * @param {string} [buildDir]
 * @returns {BuildState}
 */
export function buildState(root, buildDir = path.join(root, 'build')) {
  if (!fs.existsSync(path.join(buildDir, 'server/index.js'))) return 'missing';
  /** @type {string} */
  let stamp;
  try {
    stamp = fs.readFileSync(path.join(buildDir, STAMP_FILE), 'utf8').trim();
  } catch {
    return 'stale';
  }
  return stamp === sourcesFingerprint(root) ? 'fresh' : 'stale';
}
