import { supportLabel } from '../account/order-details';
import { DEFAULT_PRICE_LIST, type ReelSize } from '../pricing/default-price-list';
import type { ParcelTrackingView } from '../shipping/carrier-events';

/*
 * Where each counted item is in the workshop, as the customer's order page shows it once the
 * originals are received (decision 026). Pure: built from what the
 * workshop already records — the reception's counts (per order line, reels per size), the order's
 * stage on the workshop board, and the files the workshop delivered for each support — so the
 * staff type nothing more.
 *
 * Per support: its count and its stage. Tapes and film reels are listed one by one as well: the
 * n-th item of a support is done when the workshop has delivered its n-th file (files of a support
 * in name order: the workshop names each tape's file after the tape, e.g. « Mariage 1987 »), and
 * that file's name is the item's label; without a file yet it is « Cassette n° 2 », « Bobine n° 1 ».
 */

/** Supports whose items are followed one by one: each is one recording, one file. */
export const PER_ITEM_SUPPORTS: Readonly<Record<string, string>> = {
  vhs: 'Cassette',
  'vhs-c': 'Cassette',
  minidv: 'Cassette',
  film: 'Bobine',
};

export type ItemStage = 'waiting' | 'digitising' | 'quality_check' | 'done';

/** Gender-neutral French wording (a stage applies to photos, a cassette or a reel alike). */
export const ITEM_STAGE_LABELS: Readonly<Record<ItemStage, string>> = {
  waiting: 'À l’atelier, numérisation à venir',
  digitising: 'Numérisation en cours',
  quality_check: 'Contrôle qualité en cours',
  done: 'Numérisation terminée',
};

export interface ItemProgress {
  label: string;
  stage: ItemStage;
  stageLabel: string;
}

export interface SupportProgress {
  /** « Cassettes VHS », « Films Super 8 · bobines de 8 à 15 cm ». */
  label: string;
  counted: number;
  stage: ItemStage;
  stageLabel: string;
  /** Tapes and reels, one by one; null for supports counted as a batch (photos, slides…). */
  items: ItemProgress[] | null;
}

export interface ItemStagesInput {
  /** receptions.counts: [{ type, reelSize, ordered, counted }]. */
  counts: unknown;
  /** The order's workshop stage (orders.stage). */
  stage: string;
  /** The order's status: a completed or shipped order is done whatever its stage says. */
  status: string;
  /** The delivered files still kept (support and name). */
  files: ReadonlyArray<{ support: string; name: string }>;
}

function field(row: unknown, name: string): unknown {
  return row && typeof row === 'object' ? (row as Record<string, unknown>)[name] : undefined;
}

function orderStage(stage: string, status: string): ItemStage {
  if (status === 'completed' || status === 'shipped' || stage === 'ready') return 'done';
  if (stage === 'digitising') return 'digitising';
  if (stage === 'quality_check') return 'quality_check';
  return 'waiting';
}

/** A file's name as an item's label: without its extension. */
function fileLabel(name: string): string {
  const base = name.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  return base || name;
}

const progress = (stage: ItemStage) => ({ stage, stageLabel: ITEM_STAGE_LABELS[stage] });

/** Each counted support with its stage (and its tapes and reels one by one); empty before reception. */
export function itemStages(input: ItemStagesInput): SupportProgress[] {
  if (!Array.isArray(input.counts)) return [];
  const base = orderStage(input.stage, input.status);
  // Files per support in name order, consumed as the support's items are listed (film rows share them).
  const filesBySupport = new Map<string, string[]>();
  for (const file of [...input.files].sort((a, b) => a.name.localeCompare(b.name, 'fr', { numeric: true }))) {
    filesBySupport.set(file.support, [...(filesBySupport.get(file.support) ?? []), file.name]);
  }
  const used = new Map<string, number>();
  const numbering = new Map<string, number>();
  return input.counts.flatMap((row): SupportProgress[] => {
    const type = field(row, 'type');
    const counted = field(row, 'counted');
    const reelSize = field(row, 'reelSize');
    if (typeof type !== 'string' || !Number.isInteger(counted) || (counted as number) <= 0) return [];
    const count = counted as number;
    const label = supportRowLabel(type, reelSize);
    const noun = PER_ITEM_SUPPORTS[type];
    const files = filesBySupport.get(type) ?? [];
    if (!noun) {
      // A batch is done when the workshop says so, or once it delivered at least one file per item.
      const stage: ItemStage = base !== 'done' && files.length >= count && base !== 'waiting' ? 'done' : base;
      return [{ label, counted: count, ...progress(stage), items: null }];
    }
    const items: ItemProgress[] = [];
    for (let index = 0; index < count; index += 1) {
      const fileIndex = used.get(type) ?? 0;
      const file = files[fileIndex];
      used.set(type, fileIndex + 1);
      const number = (numbering.get(type) ?? 0) + 1;
      numbering.set(type, number);
      items.push({
        label: file ? fileLabel(file) : `${noun} n°\u00A0${number}`,
        ...progress(file ? 'done' : base),
      });
    }
    const stage: ItemStage = items.every((item) => item.stage === 'done') ? 'done' : base;
    return [{ label, counted: count, ...progress(stage), items }];
  });
}

/** A counted row's words: the support, and for film the size of its reels. */
function supportRowLabel(type: string, reelSize: unknown): string {
  const reel = typeof reelSize === 'string' ? DEFAULT_PRICE_LIST.filmReelPricing[reelSize as ReelSize] : undefined;
  return reel ? `${supportLabel(type)} · ${reel.description}` : supportLabel(type);
}

/** « Où sont mon colis et mes cassettes » on the order page: the parcels, then the items. */
export interface OrderTrackingView {
  parcels: ParcelTrackingView[];
  supports: SupportProgress[];
}
