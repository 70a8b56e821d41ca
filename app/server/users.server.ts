import { count, eq } from 'drizzle-orm';
import { db } from './db/client.server';
import { user } from './db/schema';

export async function countAdmins(): Promise<number> {
  const [row] = await db().select({ n: count() }).from(user).where(eq(user.role, 'admin'));
  return row?.n ?? 0;
}
