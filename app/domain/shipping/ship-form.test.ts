import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { SHIP_MODE_REQUIRED, shipInputSchema } from './ship-form';

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.set(name, value);
  return data;
}

describe('the « Expédier » form', () => {
  it('asks for the tracking number in French, under its field', () => {
    for (const parcelNumber of ['  ', '']) {
      const submission = parseWithZod(form({ mode: 'other', parcelNumber }), { schema: shipInputSchema });
      expect(submission.status).toBe('error');
      expect(submission.reply().error?.parcelNumber).toEqual(['Saisissez le numéro de suivi du colis']);
    }
  });

  it('asks for the way to ship when none is chosen', () => {
    const submission = parseWithZod(form({}), { schema: shipInputSchema });
    expect(submission.reply().error?.mode).toEqual([SHIP_MODE_REQUIRED]);
  });

  it('reads a typed tracking number, trimmed; a Colissimo label needs nothing more', () => {
    const other = parseWithZod(form({ mode: 'other', parcelNumber: ' 6A123 ' }), { schema: shipInputSchema });
    expect(other.status === 'success' ? other.value : null).toEqual({ mode: 'other', parcelNumber: '6A123' });
    const colissimo = parseWithZod(form({ mode: 'colissimo', parcelNumber: '' }), { schema: shipInputSchema });
    expect(colissimo.status === 'success' ? colissimo.value : null).toEqual({ mode: 'colissimo' });
  });
});
