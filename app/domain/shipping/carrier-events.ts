import { z } from 'zod';
import '../zod-config';

/*
 * The carrier's events of a parcel, as La Poste's tracking service (API « Suivi » v2,
 * `GET {base}/idships/{parcelNumber}` with the `X-Okapi-Key` header) gives them for Colissimo's
 * parcels, and what the shop makes of them. Pure: the client (server/shipping/tracking.server.ts)
 * fetches, this reads.
 *
 * The service answers `{ returnCode, shipment: { idShip, isFinal, event: [{ code, label, date }] } }`,
 * newest event first, dates ISO with their offset. Its codes (documented by La Poste):
 *   DR1 déclaratif réceptionné (the label exists, nothing is posted yet), PC1 / PC2 pris en charge,
 *   ET1–ET4 en cours de traitement, EP1 en attente de présentation, DO1–DO3 douane, PB1 / PB2
 *   problème, MD2 mis en distribution, ND1 non distribuable, AG1 en attente au guichet, RE1 retourné
 *   à l'expéditeur, DI1 distribué, DI2 distribué à l'expéditeur.
 * An unknown parcel (a label printed but never announced yet) is a 404 with `returnMessage`; a bad
 * key a 401.
 */

export interface CarrierEvent {
  code: string;
  label: string;
  /** ISO date of the scan. */
  at: string;
}

export type TrackingReading =
  | { ok: true; final: boolean; events: CarrierEvent[] }
  /** Not known (yet) to the carrier: a label made but not announced, or a mistyped number. */
  | { ok: false; reason: 'unknown'; detail: string }
  | { ok: false; reason: 'credentials' | 'unavailable' | 'unreadable'; detail: string };

/** The French wording the shop shows for each code (the carrier's own label is used for others). */
export const CARRIER_EVENT_LABELS: Readonly<Record<string, string>> = {
  DR1: 'Étiquette créée, colis pas encore déposé',
  PC1: 'Pris en charge par La Poste',
  PC2: 'Pris en charge dans le pays d’expédition',
  ET1: 'En cours d’acheminement',
  ET2: 'En cours d’acheminement dans le pays d’expédition',
  ET3: 'En cours d’acheminement dans le pays de destination',
  ET4: 'En cours d’acheminement dans un pays de transit',
  EP1: 'En attente de présentation',
  DO1: 'Entrée en douane',
  DO2: 'Sortie de douane',
  DO3: 'Retenu en douane',
  PB1: 'Incident en cours',
  PB2: 'Incident résolu',
  MD2: 'En cours de livraison',
  ND1: 'Non distribuable',
  AG1: 'À retirer au bureau de poste ou en point de retrait',
  RE1: 'Retourné à l’expéditeur',
  DI1: 'Livré',
  DI2: 'Livré à l’expéditeur',
};

/** Codes that say nothing was handed to the carrier yet: the label is only announced (DR…). */
function isDeclarative(code: string): boolean {
  return /^DR\d?$/i.test(code.trim());
}

/**
 * The carrier's first scan: the earliest event that is not a mere announcement. Any scan at all
 * (taken in, sorted, delivered) proves the parcel was posted, even if the « prise en charge » itself
 * was missed by the carrier's systems.
 */
export function firstPickupEvent(events: ReadonlyArray<CarrierEvent>): CarrierEvent | null {
  const scans = events.filter((event) => !isDeclarative(event.code));
  if (scans.length === 0) return null;
  return scans.reduce((first, event) => (Date.parse(event.at) < Date.parse(first.at) ? event : first));
}

/** Delivered to its addressee (DI1) or back to its sender (DI2): no more polling needed. */
export function isDeliveredCode(code: string): boolean {
  return code === 'DI1' || code === 'DI2';
}

/** What the customer reads for an event: the shop's wording for a known code, else the carrier's. */
export function carrierEventLabel(event: Pick<CarrierEvent, 'code' | 'label'>): string {
  return CARRIER_EVENT_LABELS[event.code.trim().toUpperCase()] ?? (event.label.trim() || 'Événement du transporteur');
}

/** Newest first, as the carrier lists them; equal dates keep their order. */
export function newestFirst<T extends { at: string }>(events: ReadonlyArray<T>): T[] {
  return [...events].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
}

/** One parcel as the customer's order page shows it. */
export interface ParcelTrackingView {
  direction: 'inbound' | 'outbound';
  parcelNumber: string;
  /** La Poste's public page of the parcel. */
  url: string;
  /** Newest first, in the shop's words. */
  events: Array<{ code: string; label: string; at: string }>;
  /** Delivered (or back to its sender). */
  final: boolean;
  checkedAt: string | null;
}

const eventSchema = z.object({
  code: z.string().trim().min(1).max(10),
  label: z.string().max(500).optional().default(''),
  date: z.string().refine((value) => !Number.isNaN(Date.parse(value))),
});

const successSchema = z.object({
  shipment: z.object({
    idShip: z.string().optional(),
    isFinal: z.boolean().optional(),
    event: z.array(z.unknown()).optional(),
  }),
});

const errorSchema = z.object({ returnCode: z.number().optional(), returnMessage: z.string().optional() }).passthrough();

/** Reads an answer of the tracking service (its status and parsed JSON body, or null when not JSON). */
export function readTrackingAnswer(status: number, body: unknown): TrackingReading {
  const error = errorSchema.safeParse(body);
  const message = error.success ? (error.data.returnMessage ?? '') : '';
  if (status === 401 || status === 403) return { ok: false, reason: 'credentials', detail: `HTTP ${status}` };
  if (status === 404 || (error.success && error.data.returnCode === 404)) {
    return { ok: false, reason: 'unknown', detail: message || 'numéro inconnu' };
  }
  if (status >= 500 || status === 429) return { ok: false, reason: 'unavailable', detail: `HTTP ${status}` };
  if (status >= 400) return { ok: false, reason: 'unknown', detail: message || `HTTP ${status}` };
  const parsed = successSchema.safeParse(body);
  if (!parsed.success) return { ok: false, reason: 'unreadable', detail: 'réponse sans « shipment »' };
  // An odd event is left out rather than losing the others.
  const events = (parsed.data.shipment.event ?? []).flatMap((raw) => {
    const event = eventSchema.safeParse(raw);
    if (!event.success) return [];
    return [
      { code: event.data.code.toUpperCase(), label: event.data.label, at: new Date(event.data.date).toISOString() },
    ];
  });
  const final = parsed.data.shipment.isFinal === true || events.some((event) => isDeliveredCode(event.code));
  return { ok: true, final, events };
}
