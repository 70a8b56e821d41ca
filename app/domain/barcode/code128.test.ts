import { describe, expect, it } from 'vitest';
import { Code128Error, code128BBars, code128BValues, code128BWidths, QUIET_ZONE_MODULES } from './code128';

describe('Code 128 B', () => {
  it('computes the checksum of a known example (start B, weighted values modulo 103)', () => {
    // « PJJ123C »: 104 + 48 + 2×42 + 3×42 + 4×17 + 5×18 + 6×19 + 7×35 = 879, 879 mod 103 = 55.
    expect(code128BValues('PJJ123C')).toEqual([104, 48, 42, 42, 17, 18, 19, 35, 55, 106]);
  });

  it('encodes « A » as the standard patterns: start B, A, checksum, stop', () => {
    // A = 33 (111323); checksum (104 + 33) mod 103 = 34 (131123); start B 211214; stop 2331112.
    expect(code128BWidths('A').join('')).toBe(['211214', '111323', '131123', '2331112'].join(''));
  });

  it('gives 11 modules per symbol and 13 for the stop, starting and ending with a bar', () => {
    const text = 'SV-2026-000123';
    const widths = code128BWidths(text);
    const total = widths.reduce((a, b) => a + b, 0);
    expect(total).toBe(11 * (text.length + 2) + 13);
    expect(widths.length % 2).toBe(1);
    const { bars, totalModules } = code128BBars(text);
    expect(totalModules).toBe(total + 2 * QUIET_ZONE_MODULES);
    expect(bars[0]?.x).toBe(QUIET_ZONE_MODULES);
    const last = bars.at(-1);
    expect((last?.x ?? 0) + (last?.width ?? 0)).toBe(totalModules - QUIET_ZONE_MODULES);
  });

  it('refuses what set B cannot encode', () => {
    expect(() => code128BValues('')).toThrow(Code128Error);
    expect(() => code128BValues('Numéro')).toThrow(Code128Error);
  });
});
