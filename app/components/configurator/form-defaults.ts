import { REEL_SIZES, type ReelSize, SUPPORT_TYPES, type SupportType } from '~/domain/pricing/default-price-list';
import { defaultSupportChoice } from '~/domain/pricing/selection';

/*
 * What the configurator's inputs show first: the values of the URL or of the posted form, as typed
 * (a wrong value is shown back with its message), and each support's defaults for what is absent,
 * so that ticking a support reveals sensible values even before JavaScript runs.
 */

export interface SupportDefaults {
  checked: boolean;
  quantity: string;
  quality: string;
  resolution: string;
  format: string;
  restoration: string;
  denoise: boolean;
  reels: Record<ReelSize, string>;
}

export interface FormDefaults {
  supports: Record<SupportType, SupportDefaults>;
  delivery: string;
  send: string;
  returnOriginals: boolean;
  express: boolean;
}

function own(record: unknown, key: string): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return undefined;
  return Object.hasOwn(record, key) ? (record as Record<string, unknown>)[key] : undefined;
}

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

function flag(value: unknown): boolean {
  return typeof value === 'string' && ['on', 'true', '1', 'oui'].includes(value.trim().toLowerCase());
}

export function formDefaults(payload: Record<string, unknown>): FormDefaults {
  const rawSupport = own(payload, 'support');
  const chosen = new Set((Array.isArray(rawSupport) ? rawSupport : [rawSupport]).filter((v) => typeof v === 'string'));
  const supports = Object.fromEntries(
    SUPPORT_TYPES.map((type) => {
      const base = defaultSupportChoice(type);
      const fields = own(payload, type);
      const reelsInput = own(fields, 'reels');
      const anyReel = REEL_SIZES.some((size) => own(reelsInput, size) !== undefined);
      const reels = Object.fromEntries(
        REEL_SIZES.map((size) => [size, text(own(reelsInput, size), anyReel ? '0' : String(base.reels?.[size] ?? 0))]),
      ) as Record<ReelSize, string>;
      const defaults: SupportDefaults = {
        checked: chosen.has(type),
        quantity: text(own(fields, 'quantity'), String(base.quantity)),
        quality: text(own(fields, 'quality'), base.quality),
        resolution: text(own(fields, 'resolution'), base.resolution ?? ''),
        format: text(own(fields, 'format'), base.format ?? ''),
        restoration: text(own(fields, 'restoration'), '0'),
        denoise: flag(own(fields, 'denoise')),
        reels,
      };
      return [type, defaults];
    }),
  ) as Record<SupportType, SupportDefaults>;
  return {
    supports,
    delivery: text(own(payload, 'delivery'), 'digital'),
    send: text(own(payload, 'send'), 'self'),
    returnOriginals: flag(own(payload, 'returnOriginals')),
    express: flag(own(payload, 'express')),
  };
}
