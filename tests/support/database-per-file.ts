import { afterAll, inject } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { createTestDatabase, dropTestDatabase } from './databases';

// Every integration test file works in a database of its own, cloned from the migrated template.
const adminUrl = inject('pgAdminUrl');
const database = await createTestDatabase(adminUrl, inject('pgTemplate'));
// The shop's code runs as the role it runs as in production (no superuser, owner of nothing).
process.env.DATABASE_URL = database.url;
process.env.TEST_OWNER_DATABASE_URL = database.ownerUrl;
process.env.APP_SECRET ??= 'test-secret-that-is-long-enough-for-the-checks';
process.env.NODE_ENV = 'test';
// Vite sets BASE_URL to its own base path ('/'); the shop's BASE_URL is an absolute URL.
delete process.env.BASE_URL;

afterAll(async () => {
  await closeDatabase();
  await dropTestDatabase(adminUrl, database.name);
});
