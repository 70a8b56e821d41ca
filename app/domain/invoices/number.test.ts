import { describe, expect, it } from 'vitest';
import { documentYear, formatDocumentNumber, parisDay, parseDocumentNumber } from './number';

describe('document numbers', () => {
  it.each([
    ['invoice', 2026, 1, 'FA-2026-000001'],
    ['invoice', 2026, 42, 'FA-2026-000042'],
    ['credit_note', 2026, 1, 'AV-2026-000001'],
    ['invoice', 2027, 999_999, 'FA-2027-999999'],
    ['invoice', 2027, 1_000_000, 'FA-2027-1000000'],
  ] as const)('%s %i #%i -> %s', (kind, year, sequence, expected) => {
    expect(formatDocumentNumber(kind, year, sequence)).toBe(expected);
    expect(parseDocumentNumber(expected)).toEqual({ kind, year, sequence });
  });

  it('numbers demonstration documents in their own TEST- series', () => {
    expect(formatDocumentNumber('invoice', 2026, 3, true)).toBe('TEST-FA-2026-000003');
    expect(formatDocumentNumber('credit_note', 2026, 1, true)).toBe('TEST-AV-2026-000001');
    expect(parseDocumentNumber('TEST-AV-2026-000001')).toEqual({
      kind: 'credit_note',
      year: 2026,
      sequence: 1,
      demo: true,
    });
    expect(parseDocumentNumber('TEST-XX-2026-000001')).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses sequence %s', (sequence) => {
    expect(() => formatDocumentNumber('invoice', 2026, sequence)).toThrow(RangeError);
  });

  it.each(['FA-26-000001', 'FA-2026-1', 'XX-2026-000001', 'FA-2026-00000a', ''])('does not read %j', (value) => {
    expect(parseDocumentNumber(value)).toBeNull();
  });

  it('numbers by the calendar year in France', () => {
    expect(documentYear(new Date('2026-12-31T22:59:59Z'))).toBe(2026);
    // 31 December 23:30 UTC is already 1 January in Paris.
    expect(documentYear(new Date('2026-12-31T23:30:00Z'))).toBe(2027);
    expect(parisDay(new Date('2026-12-31T23:30:00Z'))).toBe('2027-01-01');
    expect(parisDay(new Date('2026-07-14T08:00:00Z'))).toBe('2026-07-14');
  });
});
