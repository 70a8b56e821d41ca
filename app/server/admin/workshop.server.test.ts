import { beforeEach, describe, expect, it } from 'vitest';
import { parseOrderListParams } from '~/domain/admin/list-params';
import { parseBoardParams } from '~/domain/admin/workshop-board';
import { countedItemsSummary } from '~/domain/orders/counted-quantities';
import { insertWorkshopOrder } from '../../../tests/support/workshop-orders';
import { pool } from '../db/client.server';
import { listOrders } from './orders.server';
import { advanceOrders, loadWorkshopBoard } from './workshop.server';

const DAY = 86_400_000;
const board = (search = '') => loadWorkshopBoard(parseBoardParams(new URLSearchParams(search)));
const numbers = (cards: { number: string }[]) => cards.map((c) => c.number);

beforeEach(async () => {
  await pool().query('delete from receptions; delete from order_events; delete from order_items; delete from orders');
});

async function column(search: string, name: string) {
  const columns = await board(search);
  const found = columns.find((c) => c.column === name);
  if (!found) throw new Error(`no column ${name}`);
  return found;
}

describe('the workshop board', () => {
  it('shows each stage with the late orders first, then by due date, and « À expédier » apart', async () => {
    const soon = await insertWorkshopOrder(pool(), { stage: 'digitising', dueAt: new Date(Date.now() + 2 * DAY) });
    const later = await insertWorkshopOrder(pool(), { stage: 'digitising', dueAt: new Date(Date.now() + 9 * DAY) });
    const late = await insertWorkshopOrder(pool(), { stage: 'digitising', dueAt: new Date(Date.now() - 3 * DAY) });
    const toShip = await insertWorkshopOrder(pool(), { stage: 'ready', deliveryMethod: 'usb' });
    const done = await insertWorkshopOrder(pool(), { stage: 'ready' });
    await insertWorkshopOrder(pool(), { stage: 'digitising', status: 'canceled' });
    const digitising = await column('', 'digitising');
    expect(numbers(digitising.cards)).toEqual([late.number, soon.number, later.number]);
    expect(digitising.cards.map((c) => c.late)).toEqual([true, false, false]);
    expect(numbers((await column('', 'to_ship')).cards)).toEqual([toShip.number]);
    expect(numbers((await column('', 'ready')).cards)).toEqual([done.number]);
    expect((await column('', 'ready')).cards[0]?.rework).toBe(false);
    // A delivered file the customer flagged « À refaire » (decision 011) shows on the card.
    await pool().query(
      `insert into order_files (order_id, storage_key, name, support, kind, content_type, size_bytes, sha256, crc32,
         uploaded_by, rework_requested_at, rework_comment)
       values ($1, $2, 'IMG_0001.jpg', 'photos', 'image', 'image/jpeg', 10, repeat('a', 64), 0, 'import', now(), 'Floue')`,
      [done.id, `orders/${done.id}/f`],
    );
    expect((await column('', 'ready')).cards[0]?.rework).toBe(true);
    expect(digitising.cards.map((c) => c.rework)).toEqual([false, false, false]);
  });

  it('shows on a card what was counted at reception, with what was declared when it differs', async () => {
    const order = await insertWorkshopOrder(pool(), { items: [{ type: 'vhs', quantity: 3 }] });
    const card = async () => (await column('', 'received')).cards.find((c) => c.id === order.id);
    expect(countedItemsSummary((await card())?.items ?? [])).toBe('3\u00A0× Cassettes VHS');
    await pool().query(
      `insert into receptions (order_id, received_at, received_by, received_by_name, counts, remarks)
       values ($1, now(), 'system', 'Camille', $2, '[]')`,
      [order.id, JSON.stringify([{ key: 'line-0', label: 'Cassettes VHS', type: 'vhs', ordered: 3, counted: 4 }])],
    );
    expect((await card())?.items).toEqual([{ type: 'vhs', quantity: 3, counted: 4 }]);
    expect(countedItemsSummary((await card())?.items ?? [])).toBe('4 (déclaré\u00A0: 3)\u00A0× Cassettes VHS');
  });

  it('filters by support, delivery, label, return of originals, express and what is awaited', async () => {
    const vhs = await insertWorkshopOrder(pool(), { items: [{ type: 'vhs', quantity: 3 }], deliveryMethod: 'disc' });
    const photos = await insertWorkshopOrder(pool(), { returnOriginals: true, express: true });
    const label = await insertWorkshopOrder(pool(), { stage: 'awaiting_originals', sendMethod: 'label' });
    const parcel = await insertWorkshopOrder(pool(), { stage: 'awaiting_originals' });
    const received = async (search: string) => numbers((await column(search, 'received')).cards);
    expect(await received('support=vhs')).toEqual([vhs.number]);
    expect(await received('livraison=disc')).toEqual([vhs.number]);
    expect(await received('retour=oui')).toEqual([photos.number]);
    expect(await received('express=oui')).toEqual([photos.number]);
    const awaiting = async (search: string) => numbers((await column(search, 'awaiting_originals')).cards);
    expect(await awaiting('etiquette=oui')).toEqual([label.number]);
    expect(await awaiting('attente=etiquette')).toEqual([label.number]);
    expect((await awaiting('attente=colis')).sort()).toEqual([label.number, parcel.number].sort());
    // Waiting for the parcel: the other columns are not shown at all.
    expect((await board('attente=colis')).map((c) => c.column)).toEqual(['awaiting_originals']);
  });

  it('pages through one column', async () => {
    for (let i = 0; i < 35; i += 1) {
      await insertWorkshopOrder(pool(), { stage: 'quality_check', dueAt: new Date(Date.now() + (i + 1) * DAY) });
    }
    const all = await column('', 'quality_check');
    expect(all.cards).toHaveLength(10);
    expect(all.total).toBe(35);
    const first = await column('colonne=quality_check', 'quality_check');
    const second = await column('colonne=quality_check&page=2', 'quality_check');
    expect(first.cards).toHaveLength(30);
    expect(second.cards).toHaveLength(5);
    expect(new Set([...numbers(first.cards), ...numbers(second.cards)]).size).toBe(35);
    expect(await board('colonne=quality_check')).toHaveLength(1);
  });

  it('moves the selected orders to their next stage and reports the refusals in French', async () => {
    const paid = await insertWorkshopOrder(pool(), { stage: 'received' });
    const checked = await insertWorkshopOrder(pool(), { stage: 'quality_check' });
    const unpaid = await insertWorkshopOrder(pool(), { stage: 'received', paymentStatus: 'pending' });
    const notReceived = await insertWorkshopOrder(pool(), { stage: 'awaiting_originals' });
    const outcomes = await advanceOrders([paid.id, checked.id, unpaid.id, notReceived.id], 'admin-under-test');
    expect(outcomes.map((o) => [o.number, o.ok])).toEqual([
      [paid.number, true],
      [checked.number, true],
      [unpaid.number, false],
      [notReceived.number, false],
    ]);
    expect(outcomes[0]?.message).toBe('Passée à l’étape « Numérisation ».');
    expect(outcomes[2]?.message).toBe('La commande doit être payée avant d’être numérisée.');
    expect(outcomes[3]?.message).toBe('Le colis de cette commande n’a pas encore été reçu.');
    const { rows } = await pool().query<{ number: string; stage: string; status: string }>(
      'select number, stage, status from orders order by number',
    );
    const byNumber = Object.fromEntries(rows.map((r) => [r.number, [r.stage, r.status]]));
    expect(byNumber[paid.number]).toEqual(['digitising', 'processing']);
    expect(byNumber[checked.number]).toEqual(['ready', 'completed']);
    expect(byNumber[unpaid.number]).toEqual(['received', 'processing']);
    const events = await pool().query(`select 1 from order_events where kind = 'stage_changed'`);
    expect(events.rows).toHaveLength(2);
  });
});

describe('the orders list', () => {
  it('filters by delivery method, prepaid label, return of originals and stage, and shows the stage', async () => {
    const usb = await insertWorkshopOrder(pool(), { deliveryMethod: 'usb', stage: 'digitising' });
    const label = await insertWorkshopOrder(pool(), { sendMethod: 'label', stage: 'awaiting_originals' });
    const back = await insertWorkshopOrder(pool(), { returnOriginals: true });
    const list = async (search: string) =>
      numbers((await listOrders(parseOrderListParams(new URLSearchParams(search)))).rows);
    expect(await list('livraison=usb')).toEqual([usb.number]);
    expect(await list('etiquette=oui')).toEqual([label.number]);
    expect(await list('retour=oui')).toEqual([back.number]);
    expect(await list('etape=digitising')).toEqual([usb.number]);
    expect(await list('etape=inconnue&livraison=pigeon')).toHaveLength(3);
    const rows = (await listOrders(parseOrderListParams(new URLSearchParams('livraison=usb')))).rows;
    expect(rows[0]?.stage).toBe('digitising');
  });
});
