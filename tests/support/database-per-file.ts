import { afterAll, inject } from 'vitest';
import { closeDatabase } from '~/server/db/client.server';
import { createTestDatabase, dropTestDatabase } from './databases';

// Every integration test file works in a database of its own, cloned from the migrated template.
const adminUrl = inject('pgAdminUrl');
const database = await createTestDatabase(adminUrl, inject('pgTemplate'));
process.env.DATABASE_URL = database.url;
process.env.APP_SECRET ??= 'test-secret-that-is-long-enough-for-the-checks';
process.env.NODE_ENV = 'test';

afterAll(async () => {
  await closeDatabase();
  await dropTestDatabase(adminUrl, database.name);
});
