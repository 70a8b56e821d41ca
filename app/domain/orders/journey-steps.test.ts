import { describe, expect, it } from 'vitest';
import { countedLines, type JourneyEvent, type JourneyOrder, journeySteps } from './journey-steps';

const order: JourneyOrder = {
  createdAt: '2026-11-02T09:00:00.000Z',
  status: 'pending',
  stage: 'awaiting_originals',
  deliveryMethod: 'digital',
  returnOriginals: true,
  withdrawnAt: null,
};
const placed: JourneyEvent = { kind: 'placed', at: '2026-11-02T09:05:00.000Z', to: 'card', data: {} };

const summary = (steps: ReturnType<typeof journeySteps>) => steps?.map((s) => `${s.id}:${s.state}`);

describe('journeySteps', () => {
  it('starts at « Commande », dated by the placement, with the parcel still to send', () => {
    const steps = journeySteps(order, [placed]);
    expect(summary(steps)).toEqual([
      'ordered:current',
      'sent:upcoming',
      'received:upcoming',
      'digitising:upcoming',
      'ready:upcoming',
      'shipped:upcoming',
    ]);
    expect(steps?.[0]?.at).toBe('2026-11-02T09:05:00.000Z');
  });

  it('dates each step from its history event and highlights the furthest one', () => {
    const events: JourneyEvent[] = [
      placed,
      { kind: 'label_created', at: '2026-11-02T09:06:00.000Z', to: null, data: { direction: 'inbound' } },
      {
        kind: 'parcel_posted',
        at: '2026-11-03T10:00:00.000Z',
        to: null,
        data: { direction: 'inbound', code: 'PC1', scannedAt: '2026-11-03T07:45:00.000Z' },
      },
      { kind: 'label_created', at: '2026-11-09T09:06:00.000Z', to: null, data: { direction: 'outbound' } },
      { kind: 'parcel_received', at: '2026-11-04T10:00:00.000Z', to: 'received', data: {} },
      { kind: 'stage_changed', at: '2026-11-05T10:00:00.000Z', to: 'digitising', data: {} },
    ];
    const steps = journeySteps({ ...order, status: 'processing', stage: 'digitising' }, events);
    expect(summary(steps)).toEqual([
      'ordered:done',
      'sent:done',
      'received:done',
      'digitising:current',
      'ready:upcoming',
      'shipped:upcoming',
    ]);
    // Dated by the carrier's scan, not by the label nor by when the shop learnt of it.
    expect(steps?.[1]?.at).toBe('2026-11-03T07:45:00.000Z');
    expect(steps?.[3]?.at).toBe('2026-11-05T10:00:00.000Z');
  });

  it('does not tick « Colis envoyé » for a label alone, but for the carrier’s first scan', () => {
    const label: JourneyEvent = {
      kind: 'label_created',
      at: '2026-11-02T09:06:00.000Z',
      to: null,
      data: { direction: 'inbound', parcelNumber: '6A12345678901' },
    };
    expect(summary(journeySteps(order, [placed, label]))?.slice(0, 2)).toEqual(['ordered:current', 'sent:upcoming']);
    const posted: JourneyEvent = {
      kind: 'parcel_posted',
      at: '2026-11-04T08:00:00.000Z',
      to: null,
      data: { direction: 'inbound', code: 'PC1', scannedAt: '2026-11-03T16:20:00.000Z' },
    };
    const steps = journeySteps(order, [placed, label, posted]);
    expect(summary(steps)?.slice(0, 3)).toEqual(['ordered:done', 'sent:current', 'received:upcoming']);
    expect(steps?.[1]?.at).toBe('2026-11-03T16:20:00.000Z');
    // The return parcel's scan is not the customer's parcel.
    const returned = { ...posted, data: { direction: 'outbound', code: 'PC1' } };
    expect(summary(journeySteps(order, [placed, returned]))?.[1]).toBe('sent:upcoming');
  });

  it('counts a step as done when a later one is reached, even without its own event', () => {
    const steps = journeySteps({ ...order, status: 'processing', stage: 'received' }, [placed]);
    expect(summary(steps)?.slice(0, 4)).toEqual([
      'ordered:done',
      'sent:done',
      'received:current',
      'digitising:upcoming',
    ]);
    expect(steps?.[1]?.at).toBeNull();
  });

  it('ends with « Expédié » once shipped, and has no such step when nothing comes back by post', () => {
    const shipped = journeySteps({ ...order, status: 'shipped', stage: 'ready' }, [
      placed,
      { kind: 'shipped', at: '2026-11-10T08:00:00.000Z', to: 'shipped', data: { parcelNumber: '6A123' } },
    ]);
    expect(shipped?.at(-1)).toMatchObject({ id: 'shipped', state: 'current', at: '2026-11-10T08:00:00.000Z' });

    const digital = journeySteps({ ...order, returnOriginals: false, status: 'completed', stage: 'ready' }, [placed]);
    expect(digital?.map((s) => s.label)).toEqual(['Commande', 'Colis envoyé', 'Reçu', 'Numérisation', 'Prêt']);
    expect(digital?.at(-1)?.state).toBe('current');
  });

  it('has no journey for a cancelled or withdrawn order', () => {
    expect(journeySteps({ ...order, status: 'canceled' }, [placed])).toBeNull();
    expect(journeySteps({ ...order, withdrawnAt: '2026-11-03T00:00:00.000Z' }, [placed])).toBeNull();
  });
});

describe('countedLines', () => {
  it('names the supports and reel sizes in French and leaves odd rows out', () => {
    expect(
      countedLines([
        { position: 0, type: 'photos', reelSize: null, ordered: 250, counted: 270 },
        { position: 1, type: 'film', reelSize: 'small', ordered: 2, counted: 2 },
        { position: 2, type: 'vhs', ordered: 'deux', counted: 2 },
      ]),
    ).toEqual([
      { label: 'Photos papier', ordered: 250, counted: 270 },
      { label: 'Films Super 8 et 16 mm · Petite bobine (jusqu’à 7 cm)', ordered: 2, counted: 2 },
    ]);
    expect(countedLines(null)).toEqual([]);
  });
});
