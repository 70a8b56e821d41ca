import { describe, expect, it } from 'vitest';
import { SUPPORT_TYPES } from '../pricing/default-price-list';
import { PACKING_ADVICE, packingAdviceFor } from './sending-instructions';

describe('packing advice', () => {
  it('has French advice for every support of the catalogue', () => {
    for (const type of SUPPORT_TYPES) expect(PACKING_ADVICE[type].advice.length).toBeGreaterThan(40);
  });

  it('lists each kind once for an order, in the catalogue order, ignoring unknown types', () => {
    const advice = packingAdviceFor(['vhs', 'photos', 'minidv', 'inconnu']);
    expect(advice.map((a) => a.title)).toEqual(['Photos et tirages', 'Cassettes vidéo (VHS, VHS-C, MiniDV)']);
  });
});
