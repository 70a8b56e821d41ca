import { describe, expect, it } from 'vitest';
import {
  EXTENSION_DAYS,
  endOfParisDay,
  extendedExpiry,
  extensionFormSchema,
  filesConfigFrom,
  filesConfigSchema,
  RETENTION_MESSAGES,
} from './retention';

const DAY = 86_400_000;
const now = new Date('2026-11-21T10:00:00Z');
const expiresAt = new Date('2027-01-20T10:00:00Z');

describe('the retention setting', () => {
  it.each([
    ['60', true],
    ['7', true],
    ['730', true],
    ['6', false],
    ['731', false],
    ['30,5', false],
    ['', false],
    ['abc', false],
  ])('%s days: valid %s', (value, valid) => {
    const parsed = filesConfigSchema.safeParse({ retentionDays: value });
    expect(parsed.success).toBe(valid);
    if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe(RETENTION_MESSAGES.daysInvalid);
  });

  it('a stored value that no longer fits falls back to 60 days', () => {
    expect(filesConfigFrom({ retentionDays: 2 })).toEqual({ retentionDays: 60 });
    expect(filesConfigFrom({ retentionDays: 90 })).toEqual({ retentionDays: 90 });
  });
});

describe('extending an order’s retention', () => {
  it('the last minute of a Paris day, summer and winter', () => {
    expect(endOfParisDay('2027-01-22')?.toISOString()).toBe('2027-01-22T22:59:00.000Z');
    expect(endOfParisDay('2027-07-14')?.toISOString()).toBe('2027-07-14T21:59:00.000Z');
    expect(endOfParisDay('2027-02-30')).toBeNull();
    expect(endOfParisDay('22/01/2027')).toBeNull();
  });

  it.each([
    [
      '+30 days from the expiry',
      { kind: 'days', days: 30 } as const,
      { ok: true, expiresAt: new Date(expiresAt.getTime() + 30 * DAY) },
    ],
    [
      'a later date',
      { kind: 'until', day: '2027-02-01' } as const,
      { ok: true, expiresAt: new Date('2027-02-01T22:59:00Z') },
    ],
    [
      'a date before today',
      { kind: 'until', day: '2026-11-20' } as const,
      { ok: false, message: RETENTION_MESSAGES.beforeToday },
    ],
    [
      'not later than now',
      { kind: 'until', day: '2027-01-10' } as const,
      { ok: false, message: 'Choisissez une date postérieure au 20/01/2027, la date actuelle.' },
    ],
    [
      'too far',
      { kind: 'until', day: '2030-01-01' } as const,
      { ok: false, message: 'La conservation ne peut pas dépasser le 20/11/2028.' },
    ],
    ['unreadable', { kind: 'until', day: '' } as const, { ok: false, message: RETENTION_MESSAGES.dateInvalid }],
  ])('%s', (_name, request, expected) => {
    expect(extendedExpiry({ expiresAt, deletedAt: null }, request, now)).toEqual(expected);
  });

  it('never after the deletion, nor before the publication; +30 days from now when the date has passed', () => {
    expect(extendedExpiry({ expiresAt, deletedAt: now }, { kind: 'days', days: 30 }, now)).toEqual({
      ok: false,
      message: RETENTION_MESSAGES.deleted,
    });
    expect(extendedExpiry({ expiresAt: null, deletedAt: null }, { kind: 'days', days: 30 }, now)).toEqual({
      ok: false,
      message: RETENTION_MESSAGES.notPublished,
    });
    const passed = new Date(now.getTime() - DAY);
    expect(extendedExpiry({ expiresAt: passed, deletedAt: null }, { kind: 'days', days: 30 }, now)).toEqual({
      ok: true,
      expiresAt: new Date(now.getTime() + 30 * DAY),
    });
  });

  it('reads « Prolonger la conservation »: a date, or + 30 days; a missing date is said under the field', () => {
    expect(extensionFormSchema.parse({ mode: 'until', until: '2026-12-31' })).toEqual({
      kind: 'until',
      day: '2026-12-31',
    });
    expect(extensionFormSchema.parse({ mode: 'days' })).toEqual({ kind: 'days', days: EXTENSION_DAYS });
    const missing = extensionFormSchema.safeParse({ mode: 'until' });
    expect(missing.error?.issues[0]).toMatchObject({ path: ['until'], message: RETENTION_MESSAGES.dateInvalid });
  });
});
