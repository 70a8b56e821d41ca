import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARE_COPY_MESSAGES } from '~/domain/orders/extra-copies';
import { insertTestOrder } from '../../../tests/support/orders';
import { db } from '../db/client.server';
import { storeOrderFile } from '../files/order-files.server';
import { createShare, lookUpShare } from '../files/sharing.server';
import { createLocalStorage } from '../files/storage.server';
import { log } from '../log.server';
import { getActivePriceList } from '../pricing/price-lists.server';
import { ensureDefaultPriceList } from '../seed/price-list.server';
import { listShareFiles, startShareCopyOrder } from './share-copies.server';

/*
 * A relative orders a copy from a family share, against a real PostgreSQL: a file outside
 * the share's selection is refused and nothing is ordered; « Tous les fichiers » means the
 * selection's files; the order made is the relative's own (a guest with their e-mail), linked to
 * the source order, priced from the price list.
 */

process.env.BASE_URL = 'https://www.soovenirs.test';
log.level = 'silent';
let folder: string;
const RELATIVE = 'cousin.paul@example.fr';

beforeAll(async () => {
  await ensureDefaultPriceList();
  folder = await fs.mkdtemp(path.join(os.tmpdir(), 'soovenirs-share-copies-'));
});
afterAll(() => fs.rm(folder, { recursive: true, force: true }));

async function sharedOrder() {
  const order = await insertTestOrder(process.env.DATABASE_URL as string, {
    paymentStatus: 'paid',
    status: 'processing',
  });
  const storage = createLocalStorage(folder);
  const ids: string[] = [];
  for (const name of ['1.jpg', '2.jpg', '3.jpg']) {
    const stored = await storeOrderFile(
      { orderId: order.id, name, support: 'photos', body: Readable.from([randomBytes(1500)]), uploadedBy: 'system' },
      { storage },
    );
    ids.push(stored.file.id);
  }
  await db().execute(
    sql`update orders set files_published_at = now(), files_expire_at = now() + interval '60 days' where id = ${order.id}`,
  );
  const [one, two, three] = ids as [string, string, string];
  const created = await createShare({
    orderId: order.id,
    createdBy: 'guest',
    form: {
      scope: 'selection',
      fileIds: [one, three],
      allowDownloads: true,
      days: 30,
      emails: [],
      label: null,
      message: null,
    },
  });
  if (!created.ok) throw new Error(created.error);
  const lookup = await lookUpShare(
    new Request('http://localhost/partage/x', { headers: { 'x-soovenirs-client-ip': `10.9.0.${randomUUID()}` } }),
    created.token,
  );
  if (lookup.kind !== 'open') throw new Error(`expected an open share, got ${lookup.kind}`);
  return { order, share: lookup.share, one, two, three };
}

const choice = (fileIds: 'all' | string[]) => ({
  medium: 'usb' as const,
  quantity: 1,
  fileIds,
  recipient: null,
  giftMessage: null,
});

async function copiesOf(sourceOrderId: string) {
  const { rows } = await db().execute<{
    order_id: string;
    kind: string;
    file_ids: string[] | null;
    file_count: number;
    ordered_by: string;
    user_id: string | null;
    guest_email: string | null;
    total_price: number;
  }>(sql`select l.order_id, l.kind, l.file_ids, l.file_count, l.ordered_by, o.user_id, o.guest_email, o.total_price
         from linked_orders l join orders o on o.id = l.order_id
         where l.source_order_id = ${sourceOrderId} order by o.created_at`);
  return rows;
}

describe('a copy ordered from a family share', () => {
  it('offers only the share’s files and refuses a file outside it, ordering nothing', async () => {
    const { order, share, one, two, three } = await sharedOrder();
    expect((await listShareFiles(share)).map((file) => file.id).sort()).toEqual([one, three].sort());
    for (const fileIds of [[two], [one, two], [randomUUID()]]) {
      const refused = await startShareCopyOrder({ share, choice: choice(fileIds), email: RELATIVE });
      expect(refused).toEqual({ ok: false, message: SHARE_COPY_MESSAGES.outsideShare });
    }
    expect(await copiesOf(order.id)).toEqual([]);
  });

  it('makes the relative’s own guest order, linked to the source order, of the selection’s files', async () => {
    const { order, share, one, three } = await sharedOrder();
    const started = await startShareCopyOrder({ share, choice: choice('all'), email: RELATIVE });
    if (!started.ok) throw new Error(started.message);
    expect(started.accessToken).toMatch(/.{20,}/);
    expect(started.number).not.toBe(order.number);
    const prices = (await getActivePriceList()).data.extraCopies;
    expect(started.totalPriceCents).toBe(prices.usbPrice + prices.shippingPrice);

    const picked = await startShareCopyOrder({ share, choice: choice([three]), email: RELATIVE });
    expect(picked.ok).toBe(true);

    const copies = await copiesOf(order.id);
    expect(copies).toHaveLength(2);
    const [all, single] = copies as [(typeof copies)[0], (typeof copies)[0]];
    expect(all).toMatchObject({
      order_id: started.orderId,
      kind: 'extra_copy',
      file_count: 2,
      ordered_by: `share:${share.id}`,
      user_id: null,
      guest_email: RELATIVE,
      total_price: prices.usbPrice + prices.shippingPrice,
    });
    // « Tous les fichiers » of a selection share: the selection, never the whole order.
    expect([...(all.file_ids ?? [])].sort()).toEqual([one, three].sort());
    expect(single).toMatchObject({ file_ids: [three], file_count: 1, guest_email: RELATIVE });
  });
});
