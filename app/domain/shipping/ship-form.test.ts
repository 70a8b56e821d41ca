import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { isLaPosteParcelNumber, PARCEL_NUMBER_MESSAGES, s10CheckDigit } from './parcel-number';
import { parcelCorrectionSchema, SHIP_MODE_REQUIRED, shipInputSchema } from './ship-form';

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

describe('the « Expédier » form', () => {
  it('asks for the tracking number in French, under its field', () => {
    for (const mode of ['laposte', 'other']) {
      for (const parcelNumber of ['  ', '']) {
        const submission = parseWithZod(form({ mode, parcelNumber }), { schema: shipInputSchema });
        expect(submission.status).toBe('error');
        expect(submission.reply().error?.parcelNumber).toEqual(['Saisissez le numéro de suivi du colis']);
      }
    }
  });

  it('asks for the way to ship when none is chosen', () => {
    const submission = parseWithZod(form({}), { schema: shipInputSchema });
    expect(submission.reply().error?.mode).toEqual([SHIP_MODE_REQUIRED]);
  });

  it('reads a typed tracking number, normalised; a Colissimo label needs nothing more', () => {
    const typed = parseWithZod(form({ mode: 'laposte', parcelNumber: ' 6a 1234 5678 901 ' }), {
      schema: shipInputSchema,
    });
    expect(typed.status === 'success' ? typed.value : null).toEqual({ mode: 'laposte', parcelNumber: '6A12345678901' });
    const other = parseWithZod(form({ mode: 'other', parcelNumber: '1Z-999-AA1' }), { schema: shipInputSchema });
    expect(other.status === 'success' ? other.value : null).toEqual({ mode: 'other', parcelNumber: '1Z999AA1' });
    const colissimo = parseWithZod(form({ mode: 'colissimo', parcelNumber: '' }), { schema: shipInputSchema });
    expect(colissimo.status === 'success' ? colissimo.value : null).toEqual({ mode: 'colissimo' });
  });

  it('refuses « abc » and a mistyped La Poste number, in French under the field', () => {
    for (const parcelNumber of ['abc', '6A1234567890', 'RR123456784FR', '6A12345678901X']) {
      const submission = parseWithZod(form({ mode: 'laposte', parcelNumber }), { schema: shipInputSchema });
      expect(submission.reply().error?.parcelNumber, parcelNumber).toEqual([PARCEL_NUMBER_MESSAGES.laPoste]);
    }
    for (const parcelNumber of ['abc', 'n° 12/34']) {
      const submission = parseWithZod(form({ mode: 'other', parcelNumber }), { schema: shipInputSchema });
      expect(submission.reply().error?.parcelNumber, parcelNumber).toEqual([PARCEL_NUMBER_MESSAGES.other]);
    }
    const correction = parseWithZod(form({ mode: 'colissimo' }), { schema: parcelCorrectionSchema });
    expect(correction.status).toBe('error');
  });
});

describe('La Poste tracking numbers', () => {
  it('accept the domestic form and the S10 form with its check digit', () => {
    // UPU S10's own example: 47312482 → 9 (RA473124829GB).
    expect(s10CheckDigit('47312482')).toBe(9);
    expect(s10CheckDigit('12345678')).toBe(5);
    for (const valid of ['6A12345678901', '8R00000000017', 'RA473124829GB', 'RR123456785FR', 'CP000000005FR']) {
      expect(isLaPosteParcelNumber(valid), valid).toBe(true);
    }
    for (const invalid of ['ABC', '6A1234567890', 'AA6123456789', 'RR123456789FR', '66123456789012']) {
      expect(isLaPosteParcelNumber(invalid), invalid).toBe(false);
    }
  });
});
