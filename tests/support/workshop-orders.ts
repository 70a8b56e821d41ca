import { randomBytes } from 'node:crypto';
import type pg from 'pg';

/*
 * Orders in the workshop, written straight into a test database for the board's tests: a stage,
 * a due date, the options the board filters on, and their supports.
 */

export interface WorkshopOrderOptions {
  stage?: 'awaiting_originals' | 'received' | 'digitising' | 'quality_check' | 'ready';
  status?: 'pending' | 'processing' | 'completed' | 'shipped' | 'canceled';
  paymentStatus?: 'pending' | 'paid';
  dueAt?: Date | null;
  deliveryMethod?: 'digital' | 'usb' | 'disc';
  returnOriginals?: boolean;
  sendMethod?: 'self' | 'label';
  express?: boolean;
  items?: { type: string; quantity: number }[];
  lastName?: string;
  /**
   * The customer asked to start within the withdrawal period (default): false keeps the 14 days,
   * so that digitising waits for their end (docs/decisions/015).
   */
  earlyStartConsent?: boolean;
}

export interface WorkshopOrder {
  id: string;
  number: string;
}

type Queryable = Pick<pg.Client, 'query'>;

export async function insertWorkshopOrder(
  client: Queryable,
  options: WorkshopOrderOptions = {},
): Promise<WorkshopOrder> {
  const stage = options.stage ?? 'received';
  const number = `SV-ATELIER-${randomBytes(4).toString('hex').toUpperCase()}`;
  const status =
    options.status ?? (stage === 'ready' ? 'completed' : stage === 'awaiting_originals' ? 'pending' : 'processing');
  const dueAt =
    options.dueAt === undefined
      ? stage === 'awaiting_originals'
        ? null
        : new Date(Date.now() + 5 * 86_400_000)
      : options.dueAt;
  const { rows } = await client.query<{ id: string }>(
    `insert into orders (number, guest_email, guest_first_name, guest_last_name, status, payment_status, delivery_method,
       return_originals, send_method, express, stage, received_at, due_at, total_price, early_start_consent_at)
     values ($1, 'atelier@example.fr', 'Camille', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 5000,
       case when $12::boolean then now() end)
     returning id`,
    [
      number,
      options.lastName ?? 'Atelier',
      status,
      options.paymentStatus ?? 'paid',
      options.deliveryMethod ?? 'digital',
      options.returnOriginals ?? false,
      options.sendMethod ?? 'self',
      options.express ?? false,
      stage,
      stage === 'awaiting_originals' ? null : new Date(Date.now() - 86_400_000),
      dueAt,
      options.earlyStartConsent ?? true,
    ],
  );
  const id = rows[0]?.id as string;
  const items = options.items ?? [{ type: 'photos', quantity: 100 }];
  for (const [position, item] of items.entries()) {
    await client.query(
      `insert into order_items (order_id, position, type, quantity, unit_price, line_total) values ($1, $2, $3, $4, 50, $5)`,
      [id, position, item.type, item.quantity, 50 * item.quantity],
    );
  }
  return { id, number };
}
