import { describe, expect, it } from 'vitest';
import { carrierEventLabel, firstPickupEvent, newestFirst, readTrackingAnswer } from './carrier-events';

const announced = { code: 'DR1', label: 'Votre Colissimo va bientôt nous être confié', at: '2026-11-02T09:00:00.000Z' };
const takenIn = { code: 'PC1', label: 'Votre colis est pris en charge', at: '2026-11-03T16:20:00.000Z' };
const sorted = { code: 'ET1', label: 'En cours d’acheminement', at: '2026-11-04T03:10:00.000Z' };
const delivered = { code: 'DI1', label: 'Votre colis est livré', at: '2026-11-05T10:00:00.000Z' };

describe('the carrier’s first scan (« Colis envoyé »)', () => {
  it('is not the label’s announcement, but the « prise en charge »', () => {
    expect(firstPickupEvent([])).toBeNull();
    expect(firstPickupEvent([announced])).toBeNull();
    expect(firstPickupEvent([sorted, takenIn, announced])).toEqual(takenIn);
  });

  it('is the earliest scan when the « prise en charge » itself was missed', () => {
    expect(firstPickupEvent([delivered, sorted, announced])).toEqual(sorted);
  });
});

describe('the tracking service’s answers', () => {
  it('reads the events of a parcel, in the shop’s words, and whether it is delivered', () => {
    const reading = readTrackingAnswer(200, {
      lang: 'fr_FR',
      returnCode: 200,
      shipment: {
        idShip: '6A12345678901',
        isFinal: false,
        event: [
          { order: 2, code: 'PC1', label: 'Votre colis est pris en charge', date: '2026-11-03T17:20:00+01:00' },
          { order: 1, code: 'DR1', label: 'Annoncé', date: '2026-11-02T10:00:00+01:00' },
          { code: '', label: 'sans code', date: '2026-11-02T10:00:00+01:00' },
          { code: 'ET1', label: 'date illisible', date: 'hier' },
        ],
      },
    });
    expect(reading).toEqual({
      ok: true,
      final: false,
      events: [
        { code: 'PC1', label: 'Votre colis est pris en charge', at: '2026-11-03T16:20:00.000Z' },
        { code: 'DR1', label: 'Annoncé', at: '2026-11-02T09:00:00.000Z' },
      ],
    });
    const done = readTrackingAnswer(200, {
      shipment: { isFinal: false, event: [{ ...delivered, date: delivered.at }] },
    });
    expect(done).toMatchObject({ ok: true, final: true });
  });

  it('tells an unknown parcel, a refused key and an outage apart', () => {
    expect(readTrackingAnswer(404, { returnCode: 404, returnMessage: 'Résultat non trouvé' })).toEqual({
      ok: false,
      reason: 'unknown',
      detail: 'Résultat non trouvé',
    });
    expect(readTrackingAnswer(401, { code: 'UNAUTHORIZED' })).toMatchObject({ ok: false, reason: 'credentials' });
    expect(readTrackingAnswer(503, null)).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(readTrackingAnswer(200, { hello: 'world' })).toMatchObject({ ok: false, reason: 'unreadable' });
  });

  it('words each code in French, the carrier’s own label for a code it does not know', () => {
    expect(carrierEventLabel(takenIn)).toBe('Pris en charge par La Poste');
    expect(carrierEventLabel(delivered)).toBe('Livré');
    expect(carrierEventLabel({ code: 'XX9', label: 'Colis en zone de tri' })).toBe('Colis en zone de tri');
    expect(newestFirst([announced, delivered, takenIn]).map((e) => e.code)).toEqual(['DI1', 'PC1', 'DR1']);
  });
});
