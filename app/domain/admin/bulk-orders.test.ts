import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import {
  BULK_MESSAGES,
  bulkOrdersSchema,
  bulkTransition,
  MAX_BULK_ORDERS,
  parseSelectedIds,
  previewHeadline,
  resultHeadline,
} from './bulk-orders';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const plain = (text: string) => text.replace(/[\u00A0\u202F]/g, ' ');

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  }
  return data;
}

const errorsOf = (fields: Record<string, string | string[]>) => {
  const submission = parseWithZod(form(fields), { schema: bulkOrdersSchema });
  return submission.status === 'success' ? [] : Object.values(submission.error ?? {}).flat();
};

describe('bulk orders request', () => {
  it('reads a status or stage change of the selected orders', () => {
    const submission = parseWithZod(form({ intent: 'apply', kind: 'stage', target: 'ready', ids: [id(1), id(2)] }), {
      schema: bulkOrdersSchema,
    });
    expect(submission.status).toBe('success');
    expect(submission.status === 'success' && submission.value.ids).toEqual([id(1), id(2)]);
    expect(bulkTransition({ kind: 'stage', target: 'ready' })).toEqual({ type: 'advance_stage', to: 'ready' });
    expect(bulkTransition({ kind: 'status', target: 'shipped' })).toEqual({ type: 'set_status', to: 'shipped' });
  });

  it('refuses in French: no selection, too many, an unknown status or stage, a cancellation', () => {
    expect(errorsOf({ intent: 'apply', kind: 'status', target: 'processing' })).toContain(BULK_MESSAGES.noSelection);
    const many = Array.from({ length: MAX_BULK_ORDERS + 1 }, (_, n) => id(n));
    expect(errorsOf({ intent: 'apply', kind: 'status', target: 'processing', ids: many })).toContain(
      BULK_MESSAGES.tooMany,
    );
    expect(errorsOf({ intent: 'apply', kind: 'status', target: 'teleported', ids: id(1) })).toEqual([
      BULK_MESSAGES.unknownStatus,
    ]);
    // Cancelling needs a refund decision per order: not a bulk change.
    expect(errorsOf({ intent: 'apply', kind: 'status', target: 'canceled', ids: id(1) })).toEqual([
      BULK_MESSAGES.unknownStatus,
    ]);
    expect(errorsOf({ intent: 'apply', kind: 'stage', target: 'received', ids: id(1) })).toEqual([
      BULK_MESSAGES.unknownStage,
    ]);
    expect(errorsOf({ intent: 'apply', kind: 'stage', target: 'ready', ids: 'not-an-id' })).toEqual([
      BULK_MESSAGES.unknownOrder,
    ]);
  });

  it('reads the ids of a link on the selection', () => {
    expect(parseSelectedIds([id(1), id(1), id(2)])).toEqual({ ok: true, ids: [id(1), id(2)] });
    expect(parseSelectedIds([])).toEqual({ ok: false, error: BULK_MESSAGES.noSelection });
    expect(parseSelectedIds(['1; drop table'])).toEqual({ ok: false, error: BULK_MESSAGES.unknownOrder });
  });
});

describe('bulk summaries', () => {
  const accepted = Array.from({ length: 50 }, (_, n) => ({ orderId: id(n), number: `SV-2026-${n}` }));
  const refused = [{ orderId: id(99), number: 'SV-2026-99', reason: 'Cette commande est annulée.' }];

  it('says how many will move, to what, and how many cannot', () => {
    expect(plain(previewHeadline({ accepted, refused }, { kind: 'status', target: 'processing' }))).toBe(
      '50 commandes sur 51 passeront à « En traitement » ; 1 ne peut pas changer.',
    );
    expect(plain(previewHeadline({ accepted, refused: [] }, { kind: 'status', target: 'processing' }))).toBe(
      '50 commandes passeront à « En traitement ».',
    );
    expect(
      plain(
        previewHeadline(
          { accepted: accepted.slice(0, 37), refused: Array.from({ length: 13 }, () => refused[0]!) },
          { kind: 'status', target: 'processing' },
        ),
      ),
    ).toBe('37 commandes sur 50 passeront à « En traitement » ; 13 ne peuvent pas changer.');
    expect(
      plain(previewHeadline({ accepted: accepted.slice(0, 1), refused: [] }, { kind: 'stage', target: 'ready' })),
    ).toBe('1 commande passera à l’étape « Prêt ».');
    expect(previewHeadline({ accepted: [], refused }, { kind: 'stage', target: 'ready' })).toBe(
      'Aucune des commandes sélectionnées ne peut changer.',
    );
  });

  it('says what was done and how many were refused', () => {
    expect(plain(resultHeadline({ accepted, refused }, { kind: 'stage', target: 'quality_check' }))).toBe(
      '50 commandes passées à l’étape « Contrôle qualité » ; 1 refusée.',
    );
    expect(plain(resultHeadline({ accepted: [], refused }, { kind: 'status', target: 'shipped' }))).toBe(
      'Aucune commande n’a changé ; 1 refusée.',
    );
  });
});
