import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';

process.env.BASE_URL = 'http://localhost:3000';

const { db } = await import('../db/client.server');
const { orders } = await import('../db/schema');
const { insertOrder, registeredAccount } = await import('./testing/fixtures');
const { getProfile, updateProfile } = await import('./users.server');

describe('updateProfile', () => {
  it('saves the profile and lets the back office find the orders under the new name', async () => {
    const account = await registeredAccount('customer', { firstName: 'Jeanne', lastName: 'Martin' });
    const order = await insertOrder({ userId: account.id });

    const saved = await updateProfile(account.id, {
      firstName: 'Jeanne',
      lastName: 'Durand',
      phone: '06 12 34 56 78',
      street: '3 rue des Lilas',
      postalCode: '45000',
      city: 'Orléans',
    });

    expect(saved).toBe(true);
    expect(await getProfile(account.id)).toMatchObject({ lastName: 'Durand', city: 'Orléans' });
    const [row] = await db().select({ searchText: orders.searchText }).from(orders).where(eq(orders.id, order.id));
    expect(row?.searchText).toBe(`jeanne durand ${account.email}`);
  });
});
