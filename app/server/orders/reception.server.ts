import { asc, eq } from 'drizzle-orm';
import { formatEurosFromCents } from '~/domain/format';
import { dueDate } from '~/domain/orders/due-date';
import { closedWorkRefusal } from '~/domain/orders/open-work';
import {
  MAX_RECEPTION_PHOTOS,
  type OrderedLine,
  photoProblem,
  RECEPTION_MESSAGES,
  type ReceptionSummary,
  type Recount,
  receptionFormSchema,
  receptionSummary,
  recount,
} from '~/domain/orders/reception';
import { DEFAULT_PRICE_LIST, type PriceListDocument } from '~/domain/pricing/default-price-list';
import { parsePriceListDocument } from '~/domain/pricing/price-list-schema';
import type { LineChoice } from '~/domain/pricing/pricing';
import type { PromotionTerms } from '~/domain/vouchers/promotions';
import { db, type Tx } from '../db/client.server';
import { orderAdjustments, orderItems, orders, priceLists, receptionPhotos, receptions } from '../db/schema';
import { log } from '../log.server';
import { orderPromotions } from '../vouchers/promotions.server';
import {
  type Actor,
  type LifecycleTx,
  REDUCTION_REASON,
  type TransitionResult,
  withLifecycle,
} from './lifecycle.server';
import { hashAccessToken, newAccessToken } from './tokens.server';

/*
 * « Colis reçu » (docs/fulfilment.md, « Reception »): the staff count what arrived; in ONE transaction the
 * reception (counts, remarks, photos) is stored, the lifecycle's `receive` sets the promised date,
 * a count above the order asks the customer for a supplement (`request_supplement`, with the pay
 * link's token), and a count below owes the difference back (`record_reduction`, decision 022):
 * reserved « à rembourser » with the reception, made once committed when who counted holds the
 * refund right (they saw the amount in the preview first), else approved later by someone who does.
 */

export { REDUCTION_REASON } from './lifecycle.server';

export interface ReceptionPhotoUpload {
  name: string;
  type: string;
  content: Buffer;
}

export interface ReceptionOrder {
  lines: OrderedLine[];
  /** The promotion codes the order was placed with (decision 038), which price its recount. */
  codes: PromotionTerms[];
  list: PriceListDocument;
  express: boolean;
  stage: string;
  /** Why the order takes no originals any more (cancelled, withdrawn, refunded); null while open. */
  closed: string | null;
}

/** The order's lines and its own price list (the list's defaults for entries older lists lack). */
export async function loadReceptionOrder(orderId: string, executor: Tx | ReturnType<typeof db> = db()) {
  const [order] = await executor
    .select({
      express: orders.express,
      stage: orders.stage,
      list: priceLists.data,
      placedAt: orders.placedAt,
      status: orders.status,
      withdrawnAt: orders.withdrawnAt,
      paymentStatus: orders.paymentStatus,
    })
    .from(orders)
    .leftJoin(priceLists, eq(priceLists.id, orders.priceListId))
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const rows = await executor
    .select()
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId))
    .orderBy(asc(orderItems.position), asc(orderItems.id));
  const parsed = order.list ? parsePriceListDocument(order.list) : null;
  if (!parsed?.ok) log.warn({ orderId }, 'reception: the order has no readable price list, the default one prices it');
  const lines: OrderedLine[] = rows.map((row) => ({
    position: row.position,
    type: row.type as LineChoice['type'],
    quantity: row.quantity,
    quality: row.quality as LineChoice['quality'],
    resolution: row.resolution as LineChoice['resolution'],
    format: row.format as LineChoice['format'],
    restoration: row.restoration,
    denoise: row.denoise,
    reelSize: row.reelSize as LineChoice['reelSize'],
  }));
  // The promotion codes it was placed with price its recount (decision 038).
  const codes = (await orderPromotions(executor, orderId)).map((code) => code.terms);
  return {
    lines,
    codes,
    list: parsed?.ok ? parsed.document : DEFAULT_PRICE_LIST,
    express: order.express,
    stage: order.stage,
    closed:
      closedWorkRefusal({
        placed: order.placedAt !== null,
        status: order.status,
        withdrawn: order.withdrawnAt !== null,
        paymentStatus: order.paymentStatus,
      })?.message ?? null,
  } satisfies ReceptionOrder;
}

export type ReceiveResult =
  | {
      ok: true;
      receptionId: string;
      recount: Recount;
      outcome: 'equal' | 'supplement' | 'reduction';
      /**
       * The partial refund of a reduction: made (its credit note), « à rembourser » for approval
       * (`toApprove`), or its message when it could not be made (then still owed, or not paid).
       */
      refund:
        | { ok: true; creditNoteNumber: string | null }
        | { ok: false; toApprove: true; amountCents: number }
        | { ok: false; message: string }
        | null;
    }
  | {
      ok: false;
      message: string;
      status: 400 | 404 | 409;
      /** Nothing recorded: the refund this count makes, to show before the staff confirm it. */
      confirmRefundCents?: number;
    };

/** What a member with the refund right reads before confirming a count below the order. */
export const reductionPreview = (cents: number) =>
  `Ce comptage rembourse ${formatEurosFromCents(cents)} au client (avec un avoir). Vérifiez les quantités, puis confirmez.`;

/** The lifecycle refused inside the transaction: everything rolls back, its French message is shown. */
class Refusal extends Error {
  constructor(readonly publicMessage: string) {
    super(publicMessage);
  }
}

/** The photos' own checks: at most 10, JPEG/PNG/WebP, 8 MB each. */
export function photosProblem(photos: readonly ReceptionPhotoUpload[]): string | null {
  if (photos.length > MAX_RECEPTION_PHOTOS) return RECEPTION_MESSAGES.tooManyPhotos;
  for (const photo of photos) {
    const problem = photoProblem({ type: photo.type, size: photo.content.length });
    if (problem) return problem;
  }
  return null;
}

export async function receiveParcel(input: {
  orderId: string;
  staff: { id: string; name: string };
  /** Who counts holds the refund right: a reduction is refunded at once, else left for approval. */
  canRefund: boolean;
  /** The refund the staff saw in the preview and confirm (cents); another amount is previewed again. */
  confirmedRefundCents?: number | null;
  fields: Record<string, unknown>;
  photos: readonly ReceptionPhotoUpload[];
  now?: Date;
}): Promise<ReceiveResult> {
  const now = input.now ?? new Date();
  const order = await loadReceptionOrder(input.orderId);
  if (!order) return { ok: false, message: 'Commande introuvable', status: 404 };
  const parsed = receptionFormSchema(order.lines, now).safeParse(input.fields);
  if (!parsed.success) return { ok: false, message: parsed.error.issues[0]?.message ?? '', status: 400 };
  const problem = photosProblem(input.photos);
  if (problem) return { ok: false, message: problem, status: 400 };
  const form = parsed.data;
  const result = recount(order.list, order.lines, form.counts, order.codes);
  // Money goes back only after who holds the right saw how much: nothing is recorded yet.
  const refundCents = -result.differenceCents;
  if (refundCents > 0 && input.canRefund && input.confirmedRefundCents !== refundCents) {
    return { ok: false, status: 409, message: reductionPreview(refundCents), confirmRefundCents: refundCents };
  }
  const summary: ReceptionSummary = receptionSummary(order.list, result, form.remarks);
  // The day chosen in the form; today's reception keeps the hour it was recorded.
  const receivedAt = sameUtcDay(form.receivedAt, now) ? now : form.receivedAt;
  const { turnaround } = order.list;
  const due = dueDate(receivedAt, order.express ? turnaround.expressDays : turnaround.standardDays);

  let receptionId = '';
  let reduction: TransitionResult | null = null;
  try {
    // The lifecycle's use case: a reduction refunded with the count goes to its gateway once committed.
    receptionId = await withLifecycle(async (lifecycle) => {
      const { tx, apply } = lifecycle;
      const received = await apply(input.orderId, { type: 'receive', dueAt: due.toISOString() }, input.staff.id, {
        data: { ...summary },
        now: receivedAt,
      });
      if (!received.ok) throw new Refusal(received.message);
      const [reception] = await tx
        .insert(receptions)
        .values({
          orderId: input.orderId,
          receivedAt,
          receivedBy: input.staff.id,
          receivedByName: input.staff.name,
          counts: result.lines.map(({ key, type, reelSize, ordered, counted, label }) => ({
            key,
            label,
            type,
            reelSize,
            ordered,
            counted,
          })),
          remarks: form.remarks,
        })
        .returning({ id: receptions.id });
      if (!reception) throw new Error('receptions: the insert returned no row');
      for (const photo of input.photos) {
        await tx.insert(receptionPhotos).values({
          receptionId: reception.id,
          name: photo.name.slice(0, 200) || 'photo',
          contentType: photo.type,
          content: photo.content,
          size: photo.content.length,
        });
      }
      if (result.differenceCents > 0)
        await requestSupplement(lifecycle, input.orderId, input.staff.id, reception.id, result, summary);
      if (result.differenceCents < 0) {
        // Refused only when nothing was paid (nothing to give back): the reception still stands.
        reduction = await apply(
          input.orderId,
          { type: 'record_reduction', amountCents: -result.differenceCents, refundRight: input.canRefund },
          input.staff.id,
          {
            reason: REDUCTION_REASON,
            adjustment: { receptionId: reception.id, pricing: result, accessTokenHash: null },
          },
        );
      }
      return reception.id;
    });
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.publicMessage, status: 409 };
    throw error;
  }

  const owed = reduction as TransitionResult | null;
  if (owed) {
    return {
      ok: true,
      receptionId,
      recount: result,
      outcome: 'reduction',
      refund: reductionRefund(owed),
    };
  }
  return {
    ok: true,
    receptionId,
    recount: result,
    outcome: result.differenceCents > 0 ? 'supplement' : 'equal',
    refund: null,
  };
}

/** The reduction's refund, made once committed when it was approved with the count; else it waits for approval. */
function reductionRefund(owed: TransitionResult): Extract<ReceiveResult, { ok: true }>['refund'] {
  if (!owed.ok) return { ok: false, message: owed.message };
  const [refund] = owed.refunds;
  if (!refund) return null;
  if (!refund.approved) return { ok: false, toApprove: true, amountCents: refund.amountCents };
  const [made] = owed.refundResults;
  if (!made) return null;
  return made.ok ? { ok: true, creditNoteNumber: made.creditNoteNumber } : { ok: false, message: made.message };
}

async function requestSupplement(
  { apply }: LifecycleTx,
  orderId: string,
  actor: Actor,
  receptionId: string,
  result: Recount,
  summary: ReceptionSummary,
): Promise<void> {
  const payToken = newAccessToken();
  const requested = await apply(orderId, { type: 'request_supplement', amountCents: result.differenceCents }, actor, {
    data: { counts: summary.counts },
    adjustment: { receptionId, pricing: result, accessTokenHash: hashAccessToken(payToken), payToken },
  });
  if (!requested.ok) throw new Refusal(requested.message);
}

function sameUtcDay(a: Date, b: Date): boolean {
  return a.toISOString().slice(0, 10) === b.toISOString().slice(0, 10);
}

/** What the back office's order dialog shows of the reception. */
export interface ReceptionView {
  receivedAt: Date;
  receivedByName: string;
  counts: Array<{ label: string; ordered: number; counted: number }>;
  remarks: Array<{ group: string; text: string }>;
  photos: Array<{ id: string; name: string }>;
  adjustments: Array<{ id: string; kind: string; amountCents: number; status: string; decision: string | null }>;
}

export async function loadReception(orderId: string): Promise<ReceptionView | null> {
  const [row] = await db().select().from(receptions).where(eq(receptions.orderId, orderId));
  if (!row) return null;
  const order = await loadReceptionOrder(orderId);
  const groups = order?.list.supports ?? DEFAULT_PRICE_LIST.supports;
  const [photos, adjustments] = await Promise.all([
    db()
      .select({ id: receptionPhotos.id, name: receptionPhotos.name })
      .from(receptionPhotos)
      .where(eq(receptionPhotos.receptionId, row.id))
      .orderBy(asc(receptionPhotos.createdAt)),
    db()
      .select({
        id: orderAdjustments.id,
        kind: orderAdjustments.kind,
        amountCents: orderAdjustments.amountCents,
        status: orderAdjustments.status,
        decision: orderAdjustments.decision,
      })
      .from(orderAdjustments)
      .where(eq(orderAdjustments.orderId, orderId))
      .orderBy(asc(orderAdjustments.createdAt)),
  ]);
  const remarks = (row.remarks as Array<{ group: string; text: string }>).map((remark) => ({
    group: (groups as Record<string, { title: string }>)[remark.group]?.title ?? remark.group,
    text: remark.text,
  }));
  return {
    receivedAt: row.receivedAt,
    receivedByName: row.receivedByName,
    counts: (row.counts as ReceptionView['counts']).map(({ label, ordered, counted }) => ({ label, ordered, counted })),
    remarks,
    photos,
    adjustments,
  };
}

/** A reception photo's bytes (the caller checked the staff). */
export async function loadReceptionPhoto(photoId: string) {
  const [photo] = await db()
    .select({ contentType: receptionPhotos.contentType, content: receptionPhotos.content })
    .from(receptionPhotos)
    .where(eq(receptionPhotos.id, photoId));
  return photo ?? null;
}
