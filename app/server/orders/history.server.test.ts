import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type OrderEventKind, orderEvent } from '~/domain/orders/events';
import { insertOrder, registeredAccount, requestWith, TEST_BASE } from '../account/testing/fixtures';
import { db } from '../db/client.server';
import { orderEvents, user } from '../db/schema';
import { getOrderForViewer } from './access.server';
import { loadOrderHistory } from './history.server';

// Vitest exposes Vite's BASE_URL ("/") in process.env; the shop's BASE_URL is an absolute URL.
process.env.BASE_URL = TEST_BASE;

const S = '\u00A0';

/** An order paid through the sandbox, moved on by a staff member, with the staff's bookkeeping. */
async function orderWithHistory() {
  const customer = await registeredAccount('customer', { firstName: 'Jeanne', lastName: 'Martin' });
  const staff = await registeredAccount('admin', { firstName: 'Ada', lastName: 'Lovelace' });
  const order = await insertOrder({ userId: customer.id, createdAt: new Date('2026-11-20T09:00:00Z') });
  const at = (minutes: number) => new Date(Date.UTC(2026, 10, 20, 9, minutes));
  await db()
    .insert(orderEvents)
    .values([
      { orderId: order.id, at: at(1), actor: customer.id, ...orderEvent('placed', { method: 'card' }) },
      {
        orderId: order.id,
        at: at(2),
        actor: 'sandbox',
        ...orderEvent(
          'payment_failed',
          { provider: 'sandbox', detail: 'Carte expirée' },
          { from: 'pending', to: 'failed' },
        ),
      },
      {
        orderId: order.id,
        at: at(3),
        actor: 'sandbox',
        ...orderEvent('payment_paid', { provider: 'sandbox', amountCents: 7600 }, { from: 'failed', to: 'paid' }),
      },
      {
        orderId: order.id,
        at: at(4),
        actor: 'system',
        ...orderEvent('email_sent', { to: customer.email, template: 'order-status' }),
      },
      {
        orderId: order.id,
        at: at(5),
        actor: staff.id,
        ...orderEvent('status_changed', {}, { from: 'pending', to: 'processing' }),
      },
      { orderId: order.id, at: at(6), actor: staff.id, ...orderEvent('note', { text: 'Bobines fragiles.' }) },
      // A kind this code does not know, as a newer version of the shop could have written (the
      // column's type says what this version writes, not what a reader may meet).
      {
        orderId: order.id,
        at: at(7),
        actor: 'system',
        kind: 'loyalty_points_added' as OrderEventKind,
        data: { points: 3 },
      },
    ]);
  return { customer, staff, order };
}

describe('loadOrderHistory', () => {
  it('gives the staff every event in French, with actors by name', async () => {
    const { order } = await orderWithHistory();
    const history = await loadOrderHistory(db(), order.id, { audience: 'staff' });
    expect(history.map(({ label, detail, actorName }) => ({ label, detail, actorName }))).toEqual([
      // The order's own customer is « Client », not their account's name.
      { label: 'Commande enregistrée', detail: null, actorName: 'Client' },
      { label: 'Commande confirmée', detail: `Paiement${S}: Carte bancaire`, actorName: 'Client' },
      {
        label: 'Échec du paiement',
        detail: `Motif${S}: Carte expirée · Paiement de démonstration`,
        actorName: 'Paiement de démonstration',
      },
      {
        label: 'Paiement reçu',
        detail: `76,00${S}€ · Paiement de démonstration`,
        actorName: 'Paiement de démonstration',
      },
      { label: 'E-mail envoyé au client', detail: expect.stringMatching(/@example\.fr$/), actorName: 'Système' },
      { label: `Statut${S}: En attente → En traitement`, detail: null, actorName: 'Ada Lovelace' },
      { label: 'Note interne', detail: 'Bobines fragiles.', actorName: 'Ada Lovelace' },
      { label: 'Événement de la commande', detail: null, actorName: 'Système' },
    ]);
    expect(history.find((entry) => entry.isNote)?.label).toBe('Note interne');
  });

  it('names a staff member by e-mail when the name is empty, and never shows an id', async () => {
    const order = await insertOrder();
    const nameless = `staff-${randomUUID()}`;
    await db()
      .insert(user)
      .values({ id: nameless, name: '', email: `${nameless}@soovenirs.test`, role: 'admin' });
    const gone = randomUUID();
    await db()
      .insert(orderEvents)
      .values([
        { orderId: order.id, actor: nameless, ...orderEvent('note', { text: 'Vu.' }) },
        { orderId: order.id, actor: gone, ...orderEvent('note', { text: 'Parti.' }) },
      ]);
    const history = await loadOrderHistory(db(), order.id, { audience: 'staff' });
    expect(history.map((entry) => entry.actorName)).toEqual([
      // insertOrder's guest order: created by the guest.
      'Client',
      `${nameless}@soovenirs.test`,
      'Compte supprimé',
    ]);
  });

  it('shows the customer only what concerns them, without staff names, notes or e-mails', async () => {
    const { order } = await orderWithHistory();
    const history = await loadOrderHistory(db(), order.id, { audience: 'customer' });
    expect(history.map(({ label, detail, actorName }) => ({ label, detail, actorName }))).toEqual([
      { label: 'Commande enregistrée', detail: null, actorName: null },
      { label: 'Commande confirmée', detail: null, actorName: null },
      { label: 'Échec du paiement', detail: null, actorName: null },
      { label: 'Paiement reçu', detail: null, actorName: null },
      { label: 'Votre commande est en traitement', detail: null, actorName: null },
    ]);
  });

  it('is the history the customer’s order page reads', async () => {
    const { customer, order } = await orderWithHistory();
    const found = await getOrderForViewer(
      requestWith(`/confirmation?orderId=${order.id}`, [customer.cookie]),
      order.id,
    );
    expect(found?.order.events.map((entry) => entry.label)).toEqual([
      'Commande enregistrée',
      'Commande confirmée',
      'Échec du paiement',
      'Paiement reçu',
      'Votre commande est en traitement',
    ]);
    expect(JSON.stringify(found?.order.events)).not.toContain('Bobines fragiles');
  });
});
