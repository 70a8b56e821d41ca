import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_LIST } from '~/domain/pricing/default-price-list';
import { db, pool } from '../db/client.server';
import { user } from '../db/schema';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import {
  getActivePriceList,
  getActivePriceListMarker,
  getPriceListById,
  InvalidPriceListError,
  InvalidStoredPriceListError,
  publishPriceList,
  StalePriceListError,
} from './price-lists.server';

async function versions() {
  const { rows } = await pool().query<{ version: number; is_active: boolean }>(
    'select version, is_active from price_lists order by version',
  );
  return rows;
}

let adminId: string;

beforeAll(async () => {
  await ensureDefaultPriceList();
  adminId = randomUUID();
  await db()
    .insert(user)
    .values({ id: adminId, name: 'Admin', email: `admin-${adminId}@example.fr`, role: 'admin' });
});

describe('the active price list', () => {
  it('is the default one at first, with its marker', async () => {
    const active = await getActivePriceList();
    expect(active).toMatchObject({ version: 1, data: DEFAULT_PRICE_LIST });
    expect(await getActivePriceListMarker()).toEqual({
      id: active.id,
      version: 1,
      lastUpdated: DEFAULT_PRICE_LIST.lastUpdated,
    });
  });
});

describe('publishing a price list', () => {
  it('creates version n+1, active, and deactivates the previous one in one go', async () => {
    const before = Date.now();
    const edited = structuredClone(DEFAULT_PRICE_LIST);
    edited.supports.photos.basePrice = 39;
    const published = await publishPriceList(edited, adminId);
    expect(published).toMatchObject({ version: 2, previousVersion: 1 });
    expect(await versions()).toEqual([
      { version: 1, is_active: false },
      { version: 2, is_active: true },
    ]);
    const active = await getActivePriceList();
    expect(active.id).toBe(published.id);
    expect(active.data.supports.photos.basePrice).toBe(39);
    // lastUpdated is the moment of publication, whatever the document said.
    expect(Date.parse(active.data.lastUpdated)).toBeGreaterThanOrEqual(before - 1000);
    expect((await getActivePriceListMarker()).version).toBe(2);
    const { rows } = await pool().query('select created_by from price_lists where version = 2');
    expect(rows[0]).toEqual({ created_by: adminId });
    // The old version stays readable, for the quotes and orders priced with it.
    const first = await pool().query<{ id: string }>('select id from price_lists where version = 1');
    expect((await getPriceListById(first.rows[0]!.id))?.data.supports.photos.basePrice).toBe(35);
  });

  it('refuses an incomplete or wrong document with French messages, writing nothing', async () => {
    const before = await versions();
    const wrong = structuredClone(DEFAULT_PRICE_LIST) as unknown as Record<string, unknown>;
    delete wrong.deliveryCosts;
    (wrong.supports as Record<string, { basePrice: unknown }>).photos!.basePrice = '0,35';
    const error = await publishPriceList(wrong, adminId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidPriceListError);
    expect((error as InvalidPriceListError).issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['deliveryCosts', 'supports.photos.basePrice']),
    );
    expect((error as InvalidPriceListError).issues.find((i) => i.path === 'supports.photos.basePrice')?.message).toBe(
      'Indiquez un montant.',
    );
    await expect(publishPriceList(null, adminId)).rejects.toBeInstanceOf(InvalidPriceListError);
    await expect(publishPriceList('prix', null)).rejects.toBeInstanceOf(InvalidPriceListError);
    expect(await versions()).toEqual(before);
  });

  it('gives distinct versions to concurrent publications, the last one active', async () => {
    const start = (await versions()).length;
    const results = await Promise.all(Array.from({ length: 6 }, () => publishPriceList(DEFAULT_PRICE_LIST, null)));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 6 }, (_, i) => start + 1 + i),
    );
    const rows = await versions();
    expect(rows.filter((r) => r.is_active)).toEqual([{ version: start + 6, is_active: true }]);
  });

  it('refuses a publication reviewed against a version that is no longer active, writing nothing', async () => {
    const before = await versions();
    const active = before.find((r) => r.is_active)?.version as number;
    await expect(
      publishPriceList(DEFAULT_PRICE_LIST, adminId, undefined, { expectedVersion: active - 1 }),
    ).rejects.toBeInstanceOf(StalePriceListError);
    expect(await versions()).toEqual(before);

    // Two admins confirming a summary of the same version at once: the second one is refused.
    const results = await Promise.allSettled(
      [0, 1].map(() => publishPriceList(DEFAULT_PRICE_LIST, adminId, undefined, { expectedVersion: active })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toEqual([
      { status: 'fulfilled', value: expect.objectContaining({ version: active + 1, previousVersion: active }) },
    ]);
    expect(results.find((r) => r.status === 'rejected')?.reason).toBeInstanceOf(StalePriceListError);
  });

  it('refuses to price with a stored list that was broken by hand', async () => {
    await pool().query(`update price_lists set data = data - 'denoisePrice' where is_active`);
    await expect(getActivePriceList()).rejects.toBeInstanceOf(InvalidStoredPriceListError);
    await publishPriceList(DEFAULT_PRICE_LIST, null);
    await expect(getActivePriceList()).resolves.toMatchObject({ data: { denoisePrice: 500 } });
  });
});
