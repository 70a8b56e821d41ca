import { supportLabel } from '../account/order-details';
import { DEFAULT_PRICE_LIST, type ReelSize } from '../pricing/default-price-list';
import type { PackingAdvice } from './sending-instructions';

/*
 * The originals' journey as the customer follows it (docs/fulfilment.md): Commande → Colis envoyé →
 * Reçu → Numérisation → Prêt → Expédié, each with its date from the order's history. Pure: the
 * server hands over the raw events and a few order fields, the page renders what this returns.
 *
 * A step is reached when its event exists, or when a later step is reached (an order received
 * without a prepaid label has no « colis envoyé » event, yet its parcel obviously travelled). The
 * current step is the furthest one reached. « Colis envoyé » is the carrier's first scan of the
 * originals' parcel (`parcel_posted`, written by server/shipping/tracking.server.ts), or reception.
 */

export const JOURNEY_STEP_IDS = ['ordered', 'sent', 'received', 'digitising', 'ready', 'shipped'] as const;
export type JourneyStepId = (typeof JOURNEY_STEP_IDS)[number];

export const JOURNEY_STEP_LABELS: Readonly<Record<JourneyStepId, string>> = {
  ordered: 'Commande',
  sent: 'Colis envoyé',
  received: 'Reçu',
  digitising: 'Numérisation',
  ready: 'Prêt',
  shipped: 'Expédié',
};

export interface JourneyEvent {
  kind: string;
  at: Date | string;
  to: string | null;
  data: unknown;
}

export interface JourneyOrder {
  createdAt: Date | string;
  status: string;
  stage: string;
  deliveryMethod: string;
  returnOriginals: boolean;
  withdrawnAt: Date | string | null;
}

export interface JourneyStep {
  id: JourneyStepId;
  label: string;
  state: 'done' | 'current' | 'upcoming';
  /** ISO date of the step when the history has it. */
  at: string | null;
}

/** Stages at or after each workshop step (the order's stage tells us even if an event is missing). */
const STAGE_RANK: Readonly<Record<string, number>> = {
  awaiting_originals: 0,
  received: 2,
  digitising: 3,
  quality_check: 3,
  ready: 4,
};

function dataField(data: unknown, field: string): unknown {
  return data && typeof data === 'object' ? (data as Record<string, unknown>)[field] : undefined;
}

/** The event that marks a step, if any (the first one: a rework goes back, the step stays reached). */
function stepEvent(id: JourneyStepId, events: ReadonlyArray<JourneyEvent>): JourneyEvent | undefined {
  switch (id) {
    case 'ordered':
      return events.find((e) => e.kind === 'placed');
    case 'sent':
      // The carrier's first scan of the originals' parcel, never the label's creation:
      // a label printed at home is not a parcel posted. Without a scan, reception ticks it (below).
      return events.find((e) => e.kind === 'parcel_posted' && dataField(e.data, 'direction') !== 'outbound');
    case 'received':
      return events.find((e) => e.kind === 'parcel_received');
    case 'digitising':
      return events.find((e) => e.kind === 'stage_changed' && e.to === 'digitising');
    case 'ready':
      return events.find((e) => e.kind === 'stage_changed' && e.to === 'ready');
    case 'shipped':
      return events.find((e) => e.kind === 'shipped');
  }
}

/** Whether something comes back by post: the « Expédié » step exists only then. */
export function returnsByPost(order: Pick<JourneyOrder, 'deliveryMethod' | 'returnOriginals'>): boolean {
  return order.deliveryMethod !== 'digital' || order.returnOriginals;
}

/** The steps of the order, or null when the journey does not apply (cancelled or withdrawn order). */
export function journeySteps(order: JourneyOrder, events: ReadonlyArray<JourneyEvent>): JourneyStep[] | null {
  if (order.status === 'canceled' || order.withdrawnAt !== null) return null;
  const ids = JOURNEY_STEP_IDS.filter((id) => id !== 'shipped' || returnsByPost(order));
  const stageRank = STAGE_RANK[order.stage] ?? 0;
  const dates = ids.map((id) => {
    const event = stepEvent(id, events);
    // A scan is dated by the carrier (the shop may learn of it hours later).
    const scannedAt = id === 'sent' ? dataField(event?.data, 'scannedAt') : undefined;
    if (typeof scannedAt === 'string' && !Number.isNaN(Date.parse(scannedAt))) return scannedAt;
    return event?.at ?? (id === 'ordered' ? order.createdAt : null);
  });
  const reachedByFields = (id: JourneyStepId, index: number): boolean =>
    id === 'ordered' || (id === 'shipped' ? order.status === 'shipped' : index <= stageRank && stageRank > 0);
  let furthest = 0;
  ids.forEach((id, index) => {
    if (dates[index] !== null || reachedByFields(id, index)) furthest = index;
  });
  return ids.map((id, index) => {
    const at = dates[index];
    return {
      id,
      label: JOURNEY_STEP_LABELS[id],
      state: index < furthest ? 'done' : index === furthest ? 'current' : 'upcoming',
      at: at === null || at === undefined ? null : new Date(at).toISOString(),
    };
  });
}

/** One line of what the workshop counted, against what was ordered. */
export interface CountedLine {
  label: string;
  ordered: number;
  counted: number;
}

/** receptions.counts ([{ type, reelSize, ordered, counted }]) as lines a customer reads; odd rows are left out. */
export function countedLines(counts: unknown): CountedLine[] {
  if (!Array.isArray(counts)) return [];
  return counts.flatMap((row) => {
    const type = dataField(row, 'type');
    const ordered = dataField(row, 'ordered');
    const counted = dataField(row, 'counted');
    const reelSize = dataField(row, 'reelSize');
    if (typeof type !== 'string' || !Number.isInteger(ordered) || !Number.isInteger(counted)) return [];
    // The reel's size in words (« bobines de 8 à 15 cm »…), never its code.
    const reel = typeof reelSize === 'string' ? DEFAULT_PRICE_LIST.filmReelPricing[reelSize as ReelSize] : undefined;
    const label = reel ? `${supportLabel(type)} · ${reel.description}` : supportLabel(type);
    return [{ label, ordered: ordered as number, counted: counted as number }];
  });
}

/** What the customer's order page shows of the journey (built by server/orders/journey.server.ts). */
export interface OrderJourneyView {
  steps: JourneyStep[] | null;
  counted: CountedLine[];
  /** The prepaid sending label: bought, and whether it is already generated. */
  prepaidLabel: { url: string; ready: boolean } | null;
  /** While the originals are still expected at the workshop. */
  sending: { slipUrl: string; packing: PackingAdvice[] } | null;
  tracking: { parcelNumber: string; url: string } | null;
}
