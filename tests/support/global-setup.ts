import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { type EmbeddedCluster, openEmbeddedPostgres } from '~/server/db/embedded.server';
import { migrateDatabase } from '~/server/db/migrate.server';
import { ensureRuntimeRole } from '~/server/db/runtime-role.server';
import { createTemplate, dropTemplate } from './databases';

declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string;
    pgTemplate: string;
  }
}

/*
 * One PostgreSQL for the whole run: TEST_DATABASE_URL when set (a server where this user may
 * create databases and roles), otherwise an embedded cluster in a temporary folder. The migrations
 * are applied once, to a template that every test database is cloned from.
 */
export default async function setup(project: TestProject) {
  let cluster: EmbeddedCluster | undefined;
  let dataDir: string | undefined;
  let adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-test-pg-'));
    cluster = await openEmbeddedPostgres({ dataDir, role: 'server', fast: true });
    adminUrl = cluster.url;
  }
  // Migrated as the owner; the role the shop runs as is granted in the template, hence in every clone.
  const template = await createTemplate(adminUrl, async (url) => {
    await migrateDatabase(url);
    await ensureRuntimeRole(url);
  });
  project.provide('pgAdminUrl', adminUrl);
  project.provide('pgTemplate', template);

  return async () => {
    await dropTemplate(adminUrl, template).catch(() => {});
    await cluster?.stop();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  };
}
