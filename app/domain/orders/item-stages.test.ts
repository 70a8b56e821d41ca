import { describe, expect, it } from 'vitest';
import { ITEM_STAGE_LABELS, itemStages } from './item-stages';

const counts = [
  { position: 0, type: 'photos', reelSize: null, ordered: 100, counted: 96 },
  { position: 1, type: 'vhs', reelSize: null, ordered: 3, counted: 3 },
  { position: 2, type: 'film', reelSize: 'small', ordered: 1, counted: 2 },
  { position: 3, type: 'slides', reelSize: null, ordered: 10, counted: 0 },
];

describe('each counted item’s stage', () => {
  it('is nothing before the reception', () => {
    expect(itemStages({ counts: null, stage: 'awaiting_originals', status: 'processing', files: [] })).toEqual([]);
  });

  it('lists each support with its stage, and tapes and reels one by one', () => {
    const supports = itemStages({ counts, stage: 'received', status: 'processing', files: [] });
    expect(supports.map((s) => [s.label, s.counted, s.stageLabel])).toEqual([
      ['Photos papier', 96, ITEM_STAGE_LABELS.waiting],
      ['Cassettes VHS', 3, ITEM_STAGE_LABELS.waiting],
      ['Films Super 8 et 16 mm · Petite bobine (jusqu’à 7 cm)', 2, ITEM_STAGE_LABELS.waiting],
    ]);
    expect(supports[0]?.items).toBeNull();
    expect(supports[1]?.items?.map((item) => item.label)).toEqual([
      'Cassette n°\u00A01',
      'Cassette n°\u00A02',
      'Cassette n°\u00A03',
    ]);
    expect(supports[2]?.items?.map((item) => item.label)).toEqual(['Bobine n°\u00A01', 'Bobine n°\u00A02']);
  });

  it('marks a tape done with its file’s name as its label, the others at the workshop’s stage', () => {
    const supports = itemStages({
      counts,
      stage: 'digitising',
      status: 'processing',
      files: [
        { support: 'vhs', name: 'Mariage 1987.mp4' },
        { support: 'vhs', name: 'Noël 1990.mp4' },
        { support: 'photos', name: 'photo-001.jpg' },
      ],
    });
    const vhs = supports[1];
    expect(vhs?.items).toEqual([
      { label: 'Mariage 1987', stage: 'done', stageLabel: 'Numérisation terminée' },
      { label: 'Noël 1990', stage: 'done', stageLabel: 'Numérisation terminée' },
      { label: 'Cassette n°\u00A03', stage: 'digitising', stageLabel: 'Numérisation en cours' },
    ]);
    expect(vhs?.stage).toBe('digitising');
    expect(supports[0]?.stage).toBe('digitising');
  });

  it('is done everywhere once the order is ready or shipped', () => {
    for (const [stage, status] of [
      ['ready', 'processing'],
      ['ready', 'shipped'],
    ] as const) {
      const supports = itemStages({ counts, stage, status, files: [] });
      expect(supports.every((s) => s.stage === 'done' && (s.items ?? []).every((i) => i.stage === 'done'))).toBe(true);
    }
  });
});
