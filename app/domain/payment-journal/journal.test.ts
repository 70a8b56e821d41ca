import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildArchive, verifyArchive } from './archive';
import { closureFigures, closureHash, closuresDue, type JournalClosure } from './closures';
import { canonicalEntry, entryHash, GENESIS_HASH, type JournalEntry } from './entries';
import { describeProblem, verifyChain, verifyClosures } from './verify';

/*
 * The journal's rules without a database: the canonical form an outside verifier reproduces, the
 * chain, what the verification names when an entry is altered, removed or moved, the closures and
 * the signed archive.
 */

type Draft = Omit<JournalEntry, 'seq' | 'previousHash' | 'hash'>;

const draft = (overrides: Partial<Draft> = {}): Draft => ({
  recordedAt: new Date('2026-12-01T09:15:03.120Z'),
  kind: 'payment_received',
  orderNumber: 'CMD-2026-000001',
  documentNumber: 'FA-2026-000001',
  amountCents: 9490,
  method: 'card',
  provider: 'stripe',
  actor: 'stripe',
  demo: false,
  sourceTable: 'payments',
  sourceId: '7d0f3c3e-0000-4000-8000-000000000001',
  ...overrides,
});

/** A chain as the trigger writes it. */
function chain(drafts: Draft[]): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (const [index, d] of drafts.entries()) {
    const unsigned = { ...d, seq: index + 1, previousHash: entries.at(-1)?.hash ?? GENESIS_HASH };
    entries.push({ ...unsigned, hash: entryHash(unsigned) });
  }
  return entries;
}

const journey = (): JournalEntry[] =>
  chain([
    draft(),
    draft({
      recordedAt: new Date('2026-12-01T10:00:00.000Z'),
      kind: 'payment_validated',
      orderNumber: 'CMD-2026-000002',
      documentNumber: 'FA-2026-000002',
      amountCents: 12000,
      method: 'transfer',
      provider: null,
      actor: 'user_staff',
      sourceTable: 'orders',
    }),
    draft({
      recordedAt: new Date('2026-12-02T08:00:00.000Z'),
      kind: 'refund',
      documentNumber: 'AV-2026-000001',
      amountCents: 1000,
      method: 'gateway',
      actor: 'user_staff',
      sourceTable: 'refunds',
    }),
    draft({
      recordedAt: new Date('2026-12-02T09:00:00.000Z'),
      orderNumber: 'CMD-2026-000003',
      documentNumber: 'TEST-FA-2026-000001',
      amountCents: 5000,
      provider: 'sandbox',
      actor: 'sandbox',
      demo: true,
    }),
  ]);

describe('the canonical form', () => {
  it('is a JSON array without spaces, in a fixed order, the time in UTC to the millisecond', () => {
    const [first] = journey();
    expect(canonicalEntry(first as JournalEntry)).toBe(
      '["soovenirs-payment-journal/1",1,"2026-12-01T09:15:03.120Z","payment_received","CMD-2026-000001",' +
        '"FA-2026-000001",9490,"card","stripe","stripe",false,"payments","7d0f3c3e-0000-4000-8000-000000000001",' +
        `"${GENESIS_HASH}"]`,
    );
    // Its SHA-256, as any tool computes it from those bytes (printf '%s' … | sha256sum).
    expect(first?.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('escapes quotes and control characters like JSON, keeps accents as UTF-8, writes null when absent', () => {
    const text = canonicalEntry({
      ...draft({ actor: 'Zoé "la" caissière\n', documentNumber: null, provider: null }),
      seq: 3,
      previousHash: GENESIS_HASH,
    });
    expect(text).toContain('"Zoé \\"la\\" caissière\\n"');
    expect(text).toContain('9490,"card",null,');
    expect(text).toContain('"CMD-2026-000001",null,9490');
  });
});

describe('verifyChain', () => {
  it('passes a chain as written', () => {
    expect(verifyChain(journey())).toMatchObject({ ok: true, count: 4, firstSeq: 1, lastSeq: 4 });
  });

  it('names an altered amount', () => {
    const entries = journey();
    entries[1] = { ...(entries[1] as JournalEntry), amountCents: 100 };
    const result = verifyChain(entries);
    expect(result).toMatchObject({ ok: false, problem: { fault: 'altered', seq: 2, orderNumber: 'CMD-2026-000002' } });
    if (!result.ok) expect(describeProblem(result.problem)).toMatch(/^Écriture n° 2, commande CMD-2026-000002/);
  });

  it('names a removed entry, in the middle and at the start', () => {
    const entries = journey();
    expect(verifyChain([...entries.slice(0, 1), ...entries.slice(2)])).toMatchObject({
      ok: false,
      problem: { fault: 'missing', seq: 2 },
    });
    expect(verifyChain(entries.slice(1))).toMatchObject({ ok: false, problem: { fault: 'missing', seq: 1 } });
  });

  it('names entries swapped in the file, or given each other’s numbers', () => {
    const entries = journey();
    const [a, b, c, d] = entries as [JournalEntry, JournalEntry, JournalEntry, JournalEntry];
    expect(verifyChain([a, c, b, d])).toMatchObject({ ok: false, problem: { fault: 'missing', seq: 2 } });
    // Numbers swapped in the database: read by number, the third entry now stands second.
    const renumbered = [a, { ...c, seq: 2 }, { ...b, seq: 3 }, d];
    expect(verifyChain(renumbered)).toMatchObject({
      ok: false,
      problem: { fault: 'reordered', seq: 2, detail: expect.stringContaining('écrite en n° 3') },
    });
  });

  it('finds an entry rewritten with a fresh hash: the next one no longer follows it', () => {
    const entries = journey();
    const rewritten = { ...(entries[1] as JournalEntry), amountCents: 1 };
    entries[1] = { ...rewritten, hash: entryHash(rewritten) };
    expect(verifyChain(entries)).toMatchObject({ ok: false, problem: { fault: 'chain_broken', seq: 3 } });
  });
});

function closeAll(entries: JournalEntry[], days: Array<{ period: JournalClosure['period']; key: string }>) {
  const closures: JournalClosure[] = [];
  for (const { period, key } of days) {
    const unsigned = {
      seq: closures.length + 1,
      period,
      periodKey: key,
      closedAt: new Date('2026-12-03T00:30:00.000Z'),
      ...closureFigures(entries, period, key),
      previousHash: closures.at(-1)?.hash ?? GENESIS_HASH,
    };
    closures.push({ ...unsigned, hash: closureHash(unsigned) });
  }
  return closures;
}

describe('closures', () => {
  it('are due each past day, then the month and the year after their last day', () => {
    expect(closuresDue({ lastClosedDay: null, firstEntryDay: '2026-12-30', today: '2027-01-02' })).toEqual([
      { period: 'day', key: '2026-12-30' },
      { period: 'day', key: '2026-12-31' },
      { period: 'month', key: '2026-12' },
      { period: 'year', key: '2026' },
      { period: 'day', key: '2027-01-01' },
    ]);
    expect(closuresDue({ lastClosedDay: '2027-01-01', firstEntryDay: '2026-12-30', today: '2027-01-02' })).toEqual([]);
    expect(closuresDue({ lastClosedDay: null, firstEntryDay: null, today: '2027-01-02' })).toEqual([]);
  });

  it('add up per kind, keep the sandbox’s money apart and carry the perpetual total', () => {
    const entries = journey();
    const [first, second] = closeAll(entries, [
      { period: 'day', key: '2026-12-01' },
      { period: 'day', key: '2026-12-02' },
    ]);
    expect(first).toMatchObject({ firstSeq: 1, lastSeq: 2, perpetualCents: 21490, chainHash: entries[1]?.hash });
    expect(first?.totals.payment_received).toEqual({ count: 1, cents: 9490, demoCount: 0, demoCents: 0 });
    expect(second?.totals.payment_received).toEqual({ count: 0, cents: 0, demoCount: 1, demoCents: 5000 });
    expect(second).toMatchObject({ firstSeq: 3, lastSeq: 4, perpetualCents: 20490 });
    // Paris time: 23:30 UTC on 1 December is already 2 December.
    const late = chain([draft({ recordedAt: new Date('2026-12-01T23:30:00.000Z') })]);
    expect(closureFigures(late, 'day', '2026-12-02').lastSeq).toBe(1);
  });

  it('are verified against the entries: a changed total is named with its period', () => {
    const entries = journey();
    const closures = closeAll(entries, [
      { period: 'day', key: '2026-12-01' },
      { period: 'day', key: '2026-12-02' },
    ]);
    expect(verifyClosures(entries, closures)).toEqual({ ok: true, count: 2 });
    const fewer = entries.slice(0, 3);
    expect(verifyClosures(fewer, closures)).toMatchObject({
      ok: false,
      problem: { on: 'closure', seq: 2, period: '2026-12-02', fault: 'mismatch' },
    });
    const forged = { ...(closures[0] as JournalClosure), perpetualCents: 1 };
    expect(verifyClosures(entries, [forged, closures[1] as JournalClosure])).toMatchObject({
      ok: false,
      problem: { seq: 1, fault: 'altered' },
    });
  });
});

describe('the archive', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const archive = () => {
    const entries = journey();
    return buildArchive({
      from: '2026-12-01',
      to: '2026-12-02',
      generatedAt: new Date('2026-12-03T08:00:00.000Z'),
      start: { seq: 1, previousHash: GENESIS_HASH, perpetualCents: 0 },
      entries,
      closures: closeAll(entries, [
        { period: 'day', key: '2026-12-01' },
        { period: 'day', key: '2026-12-02' },
      ]),
      publicKey: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
      sign: (data) => sign(null, data, privateKey),
    });
  };

  it('verifies offline: its signature, its chain and its closures', () => {
    const result = verifyArchive(Buffer.from(archive()));
    expect(result).toMatchObject({ ok: true, chain: { count: 4 }, closures: 2 });
    if (result.ok) {
      expect(verifyArchive(Buffer.from(archive()), result.manifest.keyFingerprint).ok).toBe(true);
      expect(verifyArchive(Buffer.from(archive()), 'f'.repeat(64))).toMatchObject({ ok: false });
    }
  });

  it('fails when one byte changes', () => {
    const bytes = Buffer.from(archive());
    const at = bytes.indexOf('"amountCents":9490') + '"amountCents":'.length;
    bytes[at] = '8'.charCodeAt(0);
    expect(verifyArchive(bytes)).toMatchObject({ ok: false, reason: expect.stringContaining('signature invalide') });
  });
});
