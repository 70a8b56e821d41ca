import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NBSP } from '../format';
import { FORBIDDEN_CHARACTER_MESSAGE } from '../text-input';
import {
  formatGiftCardCode,
  GIFT_CARD_CODE_ALPHABET,
  GIFT_CARD_ENTRY_KINDS,
  GIFT_CARD_MESSAGES,
  GIFT_CARD_PURCHASE_MESSAGES,
  GIFT_CARD_STATE_LABELS,
  type GiftCardEntry,
  type GiftCardEntryKind,
  type GiftCardLedger,
  generateGiftCardCode,
  giftCardBalanceCents,
  giftCardEntryProblem,
  giftCardExpiresAt,
  giftCardPurchaseSchema,
  giftCardReminderDue,
  giftCardRestorableCents,
  giftCardSaleSummary,
  giftCardSentByEmail,
  giftCardState,
  maskGiftCardCode,
  normaliseGiftCardCode,
  splitGiftCardPayment,
  splitGiftCardRefund,
} from './gift-cards';

const DAY = 24 * 60 * 60 * 1000;
const bytes = fc.uint8Array({ minLength: 15, maxLength: 15 });

describe('gift card codes', () => {
  it.each([
    // Worked by hand: a valid code's symbols satisfy Σ α^(15−i)·xᵢ = 0 in GF(32) (x⁵ + x² + 1).
    [new Uint8Array(15), '0000000000000000'],
    // Only the last random symbol is 1: the sum is 1, the check symbol α·1 = 2.
    [Uint8Array.from([...new Array(14).fill(0), 1]), '0000000000000012'],
    // Only the first is 1: the sum is α¹⁴, the check symbol α¹⁵ = x⁴ + x³ + x² + x + 1 = 31 (Z).
    [Uint8Array.from([1, ...new Array(14).fill(0)]), '100000000000000Z'],
    // A byte's low five bits make its symbol: 0x21 is 1, 0xe0 is 0.
    [Uint8Array.from([0x21, 0xe0, ...new Array(13).fill(0)]), '100000000000000Z'],
  ])('generates from given bytes (%#)', (random, code) => {
    expect(generateGiftCardCode(random)).toBe(code);
    expect(normaliseGiftCardCode(code)).toBe(code);
  });

  it('needs 15 random bytes', () => {
    expect(() => generateGiftCardCode(new Uint8Array(14))).toThrow(RangeError);
  });

  it('shows a code in four groups', () => {
    expect(formatGiftCardCode('100000000000000Z')).toBe('1000-0000-0000-000Z');
  });

  it.each([
    ['1000-0000-0000-000Z', '100000000000000Z'],
    ['  1000 0000 0000 000z  ', '100000000000000Z'],
    [`1000${NBSP}0000\u202f0000\u2010000Z`, '100000000000000Z'],
    // Crockford: O reads as 0, I and L as 1.
    ['iooo-oooo-oooo-oooz', '100000000000000Z'],
    ['L000-0000-0000-000Z', '100000000000000Z'],
  ])('normalises %j', (typed, code) => {
    expect(normaliseGiftCardCode(typed)).toBe(code);
  });

  it.each([
    ['', 'empty'],
    ['1000-0000-0000-000', 'one symbol missing'],
    ['1000-0000-0000-000Z0', 'one symbol too many'],
    ['1000-0000-0000-0001', 'wrong check symbol'],
    ['U000-0000-0000-000Z', 'U is not in the alphabet'],
    ['1000-0000-0000-000Z'.repeat(4), 'a long paste'],
  ])('refuses %j (%s)', (typed) => {
    expect(normaliseGiftCardCode(typed)).toBeNull();
  });

  it('normalises every generated code to itself, however it is typed back', () => {
    fc.assert(
      fc.property(bytes, (random) => {
        const code = generateGiftCardCode(random);
        expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{16}$/);
        expect(normaliseGiftCardCode(code)).toBe(code);
        expect(normaliseGiftCardCode(formatGiftCardCode(code))).toBe(code);
        expect(normaliseGiftCardCode(` ${formatGiftCardCode(code).toLowerCase().replace(/-/g, ' ')} `)).toBe(code);
      }),
    );
  });

  it('refuses every single-symbol substitution', () => {
    fc.assert(
      fc.property(bytes, (random) => {
        const code = generateGiftCardCode(random);
        for (let i = 0; i < code.length; i++) {
          for (const symbol of GIFT_CARD_CODE_ALPHABET) {
            if (symbol === code[i]) continue;
            const typo = `${code.slice(0, i)}${symbol}${code.slice(i + 1)}`;
            expect(normaliseGiftCardCode(typo), typo).toBeNull();
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('refuses every transposition of two different symbols, adjacent or not', () => {
    fc.assert(
      fc.property(bytes, (random) => {
        const code = generateGiftCardCode(random);
        for (let i = 0; i < code.length; i++) {
          for (let j = i + 1; j < code.length; j++) {
            if (code[i] === code[j]) continue;
            const swapped = [...code];
            [swapped[i], swapped[j]] = [swapped[j] as string, swapped[i] as string];
            expect(normaliseGiftCardCode(swapped.join('')), swapped.join('')).toBeNull();
          }
        }
      }),
      { numRuns: 50 },
    );
  });

  it('masks all but the last four symbols', () => {
    expect(maskGiftCardCode('K7M2P9QRX4TB6WAB')).toBe('••••-••••-••••-6WAB');
    expect(maskGiftCardCode('K7M2-P9QR-X4TB-6WAB')).toBe('••••-••••-••••-6WAB');
  });

  it('never reveals more than four characters, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(bytes.map(generateGiftCardCode), fc.string({ maxLength: 40 })), (input) => {
        const masked = maskGiftCardCode(input);
        expect(masked.startsWith('••••-••••-••••-')).toBe(true);
        expect([...masked.slice('••••-••••-••••-'.length)].length).toBeLessThanOrEqual(4);
      }),
    );
  });
});

// A card bought on 15 January 2026 at 10:00 Paris time, valid 12 months.
const ISSUED_AT = new Date('2026-01-15T09:00:00Z');
const EXPIRES_AT = new Date('2027-01-15T09:00:00Z');
const daysBefore = (days: number) => new Date(EXPIRES_AT.getTime() - days * DAY);

function entry(kind: GiftCardEntryKind, amountCents: number, orderId: string | null = null, at = daysBefore(100)) {
  return { kind, amountCents, orderId, at } satisfies GiftCardEntry;
}

function card(...entries: GiftCardEntry[]): GiftCardLedger {
  return { entries, expiresAt: EXPIRES_AT };
}

const issued = entry('issued', 5000, null, ISSUED_AT);

describe('the ledger', () => {
  it('computes the balance from the entries', () => {
    const entries = [issued, entry('spent', 3000, 'A'), entry('restored', 1000, 'A'), entry('spent', 500, 'B')];
    expect(giftCardBalanceCents(entries)).toBe(2500);
    expect(giftCardRestorableCents(entries, 'A')).toBe(2000);
    expect(giftCardRestorableCents(entries, 'B')).toBe(500);
    expect(giftCardRestorableCents(entries, 'C')).toBe(0);
    expect(giftCardBalanceCents([...entries, entry('expired', 2500, null, EXPIRES_AT)])).toBe(0);
  });

  const used = card(issued, entry('spent', 3000, 'A'));
  const closedByExpiry = card(issued, entry('expired', 5000, null, EXPIRES_AT));
  const canceled = card(issued, entry('refunded', 5000));

  it.each([
    ['issued first', card(), entry('issued', 5000), null],
    ['a spend within the balance', card(issued), entry('spent', 5000, 'A'), null],
    ['a restoration of what the order took', used, entry('restored', 3000, 'A'), null],
    ['the expiry of the balance once expired', used, entry('expired', 2000, null, EXPIRES_AT), null],
    ['the refund of an unused card', card(issued), entry('refunded', 5000), null],
    ['the refund of an unused card after its expiry', card(issued), entry('refunded', 5000, null, EXPIRES_AT), null],
  ])('accepts %s', (_, ledger, next, problem) => {
    expect(giftCardEntryProblem(ledger, next)).toBe(problem);
  });

  it.each([
    ['a second issue', card(issued), entry('issued', 5000), GIFT_CARD_MESSAGES.alreadyIssued],
    ['an issue of nothing', card(), entry('issued', 0), GIFT_CARD_MESSAGES.notPositive],
    ['a spend before the issue', card(), entry('spent', 100, 'A'), GIFT_CARD_MESSAGES.notIssued],
    ['a spend of nothing', card(issued), entry('spent', 0, 'A'), GIFT_CARD_MESSAGES.notPositive],
    ['a negative spend', card(issued), entry('spent', -100, 'A'), GIFT_CARD_MESSAGES.notPositive],
    ['a spend of a fraction of a cent', card(issued), entry('spent', 10.5, 'A'), GIFT_CARD_MESSAGES.notPositive],
    ['a spend without an order', card(issued), entry('spent', 100), GIFT_CARD_MESSAGES.orderRequired],
    [
      'a spend above the balance',
      used,
      entry('spent', 2001, 'B'),
      `Le solde de la carte cadeau n’est que de 20,00${NBSP}€.`,
    ],
    [
      'a spend at the expiry instant',
      card(issued),
      entry('spent', 100, 'A', EXPIRES_AT),
      `Cette carte cadeau a expiré le 15/01/2027${NBSP}: elle ne peut plus être utilisée.`,
    ],
    [
      'a spend on a card closed by its expiry',
      closedByExpiry,
      entry('spent', 1, 'A', daysBefore(1)),
      GIFT_CARD_MESSAGES.expired(EXPIRES_AT),
    ],
    ['a spend on a canceled card', canceled, entry('spent', 1, 'A'), GIFT_CARD_MESSAGES.canceled],
    ['a second expiry', closedByExpiry, entry('expired', 1, null, EXPIRES_AT), GIFT_CARD_MESSAGES.expired(EXPIRES_AT)],
    [
      'a refund after the expiry entry',
      closedByExpiry,
      entry('refunded', 5000),
      GIFT_CARD_MESSAGES.expired(EXPIRES_AT),
    ],
    [
      'a restoration on an order that took nothing',
      used,
      entry('restored', 100, 'B'),
      GIFT_CARD_MESSAGES.nothingToRestore,
    ],
    [
      'a restoration above what the order took',
      used,
      entry('restored', 3001, 'A'),
      `Cette commande ne peut rendre que 30,00${NBSP}€ à la carte cadeau.`,
    ],
    [
      'a restoration of what was already given back',
      card(issued, entry('spent', 3000, 'A'), entry('restored', 3000, 'A')),
      entry('restored', 1, 'A'),
      GIFT_CARD_MESSAGES.nothingToRestore,
    ],
    [
      'a restoration after the expiry',
      used,
      entry('restored', 100, 'A', EXPIRES_AT),
      GIFT_CARD_MESSAGES.expired(EXPIRES_AT),
    ],
    [
      'an expiry before the instant',
      used,
      entry('expired', 2000, null, daysBefore(0.001)),
      `Cette carte cadeau est valable jusqu’au 15/01/2027${NBSP}: elle n’a pas encore expiré.`,
    ],
    [
      'an expiry of less than the balance',
      used,
      entry('expired', 1000, null, EXPIRES_AT),
      `Le montant doit être le solde exact de la carte cadeau, 20,00${NBSP}€.`,
    ],
    [
      'an expiry of an empty card',
      card(issued, entry('spent', 5000, 'A')),
      entry('expired', 0, null, EXPIRES_AT),
      GIFT_CARD_MESSAGES.notPositive,
    ],
    [
      'the refund of a used card',
      card(issued, entry('spent', 3000, 'A'), entry('restored', 3000, 'A')),
      entry('refunded', 5000),
      `Cette carte cadeau a déjà servi${NBSP}: elle ne peut plus être annulée et remboursée.`,
    ],
    ['a partial refund', card(issued), entry('refunded', 4000), GIFT_CARD_MESSAGES.notWholeBalance(5000)],
  ])('refuses %s', (_, ledger, next, problem) => {
    expect(giftCardEntryProblem(ledger, next)).toBe(problem);
  });

  it.each([
    ['active', card(issued), daysBefore(1), 'Active'],
    ['spent', card(issued, entry('spent', 5000, 'A')), daysBefore(1), 'Utilisée'],
    ['spent', card(issued, entry('spent', 5000, 'A')), EXPIRES_AT, 'Utilisée'],
    ['expired', card(issued), EXPIRES_AT, 'Expirée'],
    ['expired', card(issued, entry('expired', 5000, null, EXPIRES_AT)), EXPIRES_AT, 'Expirée'],
    ['canceled', card(issued, entry('refunded', 5000)), daysBefore(1), 'Annulée'],
  ] as const)('is %s (%#)', (state, ledger, now, label) => {
    expect(giftCardState(ledger, now)).toBe(state);
    expect(GIFT_CARD_STATE_LABELS[state]).toBe(label);
  });
});

/*
 * Random attempts, each applied only when accepted. An amount is either a number of cents (often
 * wrong) or a share of what the card holds or could take back, so that the accepted paths are
 * walked too: expiries and refunds of the exact balance, restorations of part of an order.
 */
const attemptArb = fc.record({
  // Spends and restorations are what happens most; the closing kinds now and then.
  kind: fc.oneof(
    { arbitrary: fc.constantFrom('spent' as const, 'restored' as const), weight: 3 },
    { arbitrary: fc.constantFrom(...GIFT_CARD_ENTRY_KINDS), weight: 1 },
  ),
  amount: fc.oneof(
    fc.integer({ min: -500, max: 12_000 }),
    { arbitrary: fc.constantFrom('balance' as const, 'restorable' as const), weight: 2 },
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  orderId: fc.oneof(
    { arbitrary: fc.constantFrom('A', 'B', 'C'), weight: 5 },
    { arbitrary: fc.constant(null), weight: 1 },
  ),
  // Time moves on between attempts: often minutes, sometimes days (the card lasts 1 to 60 days).
  minutesLater: fc.oneof(
    { arbitrary: fc.integer({ min: 0, max: 60 }), weight: 3 },
    { arbitrary: fc.integer({ min: 0, max: 20_000 }), weight: 1 },
  ),
});

type AttemptShape = {
  kind: GiftCardEntryKind;
  amount: number | 'balance' | 'restorable';
  orderId: string | null;
  minutesLater: number;
};

function amountOf(attempt: AttemptShape, ledger: GiftCardLedger): number {
  const balance = giftCardBalanceCents(ledger.entries);
  const restorable = attempt.orderId ? giftCardRestorableCents(ledger.entries, attempt.orderId) : 0;
  if (attempt.amount === 'balance') return balance;
  if (attempt.amount === 'restorable') return restorable;
  if (typeof attempt.amount === 'number' && !Number.isInteger(attempt.amount)) {
    return Math.round(attempt.amount * (attempt.kind === 'restored' ? restorable : balance));
  }
  return attempt.amount;
}

describe('the ledger under random attempts', () => {
  it('never goes negative, never creates money, never gives an order back more than it took', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.array(attemptArb, { minLength: 1, maxLength: 40, size: 'medium' }),
        fc.integer({ min: 0, max: 12_000 }),
        (issuedCents, validityDays, attempts, refundCents) => {
          let now = ISSUED_AT.getTime();
          const expiresAt = new Date(now + validityDays * DAY);
          let ledger: GiftCardLedger = { entries: [], expiresAt };
          const first = entry('issued', issuedCents, null, new Date(now));
          expect(giftCardEntryProblem(ledger, first)).toBeNull();
          ledger = { entries: [first], expiresAt };
          for (const attempt of attempts) {
            now += attempt.minutesLater * 60_000;
            const at = new Date(now);
            const next = { kind: attempt.kind, amountCents: amountOf(attempt, ledger), orderId: attempt.orderId, at };
            const problem = giftCardEntryProblem(ledger, next);
            if (problem !== null) {
              expect(typeof problem).toBe('string');
              continue;
            }
            const closedBefore = ledger.entries.some((e) => e.kind === 'expired' || e.kind === 'refunded');
            expect(closedBefore).toBe(false);
            if (next.kind === 'refunded') expect(ledger.entries.some((e) => e.kind === 'spent')).toBe(false);
            ledger = { entries: [...ledger.entries, next], expiresAt };

            const balance = giftCardBalanceCents(ledger.entries);
            expect(balance).toBeGreaterThanOrEqual(0);
            expect(balance).toBeLessThanOrEqual(issuedCents);
            if (next.kind === 'expired' || next.kind === 'refunded') expect(balance).toBe(0);
            for (const orderId of ['A', 'B', 'C']) {
              const onOrder = ledger.entries.filter((e) => e.orderId === orderId);
              const spent = onOrder.filter((e) => e.kind === 'spent').reduce((sum, e) => sum + e.amountCents, 0);
              const restored = onOrder.filter((e) => e.kind === 'restored').reduce((sum, e) => sum + e.amountCents, 0);
              expect(restored).toBeLessThanOrEqual(spent);
            }
          }

          // Whatever the card went through, a refund splits into parts that add up, the card's
          // part within what the order took, and that part is a restoration the ledger accepts.
          const at = new Date(now);
          for (const orderId of ['A', 'B', 'C']) {
            const split = splitGiftCardRefund(ledger, orderId, refundCents, at);
            expect(split.toCardCents + split.toOtherCents).toBe(refundCents);
            expect(split.toCardCents).toBeGreaterThanOrEqual(0);
            expect(split.toOtherCents).toBeGreaterThanOrEqual(0);
            expect(split.toCardCents).toBeLessThanOrEqual(giftCardRestorableCents(ledger.entries, orderId));
            if (split.toCardCents > 0) {
              expect(giftCardEntryProblem(ledger, entry('restored', split.toCardCents, orderId, at))).toBeNull();
            }
          }
          // And a payment takes from the card only what it holds, as a spend the ledger accepts.
          const payment = splitGiftCardPayment(ledger, refundCents, at);
          expect(payment.fromCardCents + payment.fromOtherCents).toBe(refundCents);
          expect(payment.fromCardCents).toBeLessThanOrEqual(giftCardBalanceCents(ledger.entries));
          if (payment.fromCardCents > 0) {
            expect(giftCardEntryProblem(ledger, entry('spent', payment.fromCardCents, 'D', at))).toBeNull();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('paying and refunding with a card', () => {
  const used = card(issued, entry('spent', 3000, 'A'), entry('restored', 1000, 'A'));

  it.each([
    ['less than the balance', card(issued), 3500, daysBefore(1), { fromCardCents: 3500, fromOtherCents: 0 }],
    ['more than the balance', card(issued), 8000, daysBefore(1), { fromCardCents: 5000, fromOtherCents: 3000 }],
    ['on an expired card', card(issued), 3500, EXPIRES_AT, { fromCardCents: 0, fromOtherCents: 3500 }],
    [
      'on a canceled card',
      card(issued, entry('refunded', 5000)),
      3500,
      daysBefore(1),
      { fromCardCents: 0, fromOtherCents: 3500 },
    ],
  ])('pays %s', (_, ledger, due, now, split) => {
    expect(splitGiftCardPayment(ledger, due, now)).toEqual(split);
  });

  it.each([
    // The order took 30 €, 10 € already went back: the card gets at most 20 € more.
    ['a small refund', 1500, daysBefore(1), { toCardCents: 1500, toOtherCents: 0 }],
    ['a refund above what the card paid', 5000, daysBefore(1), { toCardCents: 2000, toOtherCents: 3000 }],
    ['a refund after the expiry', 1500, EXPIRES_AT, { toCardCents: 0, toOtherCents: 1500 }],
  ])('sends back %s', (_, refund, now, split) => {
    expect(splitGiftCardRefund(used, 'A', refund, now)).toEqual(split);
  });

  it('sends back nothing to the card for an order it did not pay', () => {
    expect(splitGiftCardRefund(used, 'B', 1500, daysBefore(1))).toEqual({ toCardCents: 0, toOtherCents: 1500 });
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() => splitGiftCardRefund(used, 'A', -1, daysBefore(1))).toThrow(RangeError);
    expect(() => splitGiftCardPayment(used, 10.5, daysBefore(1))).toThrow(RangeError);
  });
});

describe('validity', () => {
  it.each([
    // Paris time in winter is UTC+1, in summer UTC+2; the clock time is kept across the change.
    ['a year later, same clock time', '2026-01-15T09:00:00Z', 12, '2027-01-15T09:00:00Z'],
    ['31 January + 1 month: 28 February', '2026-01-31T09:00:00Z', 1, '2026-02-28T09:00:00Z'],
    ['31 January + 1 month in a leap year: 29 February', '2028-01-31T09:00:00Z', 1, '2028-02-29T09:00:00Z'],
    ['29 February + 12 months: 28 February', '2028-02-29T09:00:00Z', 12, '2029-02-28T09:00:00Z'],
    ['31 March + 6 months: 30 September', '2026-03-31T12:00:00Z', 6, '2026-09-30T12:00:00Z'],
    ['14:00 in winter stays 14:00 in summer', '2026-03-20T13:00:00Z', 1, '2026-04-20T12:00:00Z'],
    // 00:30 on 1 February in Paris is still 31 January in UTC: the Paris day counts.
    ['just after midnight in Paris', '2026-01-31T23:30:00Z', 1, '2026-02-28T23:30:00Z'],
    ['the last evening of the year', '2026-12-31T22:30:00Z', 2, '2027-02-28T22:30:00Z'],
    // 02:30 does not exist on 29 March 2026 (the clocks jump from 02:00 to 03:00): 03:30.
    ['into the hour skipped in spring', '2026-01-29T01:30:00Z', 2, '2026-03-29T01:30:00Z'],
  ])('%s', (_, issuedAt, months, expiresAt) => {
    expect(giftCardExpiresAt(new Date(issuedAt), months).toISOString()).toBe(new Date(expiresAt).toISOString());
  });

  it('is 12 months by default', () => {
    expect(giftCardExpiresAt(ISSUED_AT)).toEqual(EXPIRES_AT);
    expect(() => giftCardExpiresAt(ISSUED_AT, 0)).toThrow(RangeError);
  });

  it('keeps the Paris clock time and the day of the month when the month has it', () => {
    const paris = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      hourCycle: 'h23',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    const fields = (date: Date) =>
      Object.fromEntries(paris.formatToParts(date).flatMap((p) => (p.type === 'literal' ? [] : [[p.type, p.value]])));
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2025-01-01T00:00:00Z'), max: new Date('2035-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: 1, max: 36 }),
        (issuedAt, months) => {
          const expiresAt = giftCardExpiresAt(issuedAt, months);
          expect(expiresAt.getTime()).toBeGreaterThan(issuedAt.getTime() + (months * 28 - 1) * DAY);
          const from = fields(issuedAt);
          const to = fields(expiresAt);
          // Outside the hour the clocks skip (last Sunday of March, 02:00–03:00), the clock time is kept.
          if (!(to.hour === '03' && from.hour === '02')) {
            expect([to.hour, to.minute, to.second]).toEqual([from.hour, from.minute, from.second]);
          }
          expect(Number(to.day)).toBeLessThanOrEqual(Number(from.day));
          if (Number(from.day) <= 28) expect(to.day).toBe(from.day);
        },
      ),
    );
  });

  it('reminds once, from 30 days before the expiry, while money is left', () => {
    const fresh = card(issued);
    expect(giftCardReminderDue(fresh, null, daysBefore(31))).toBe(false);
    expect(giftCardReminderDue(fresh, null, daysBefore(30))).toBe(true);
    expect(giftCardReminderDue(fresh, null, daysBefore(1))).toBe(true);
    expect(giftCardReminderDue(fresh, daysBefore(10), daysBefore(1))).toBe(false);
    expect(giftCardReminderDue(fresh, null, EXPIRES_AT)).toBe(false);
    expect(giftCardReminderDue(card(issued, entry('spent', 5000, 'A')), null, daysBefore(10))).toBe(false);
    expect(giftCardReminderDue(card(issued, entry('refunded', 5000)), null, daysBefore(10))).toBe(false);
  });
});

describe('the purchase form', () => {
  const schema = giftCardPurchaseSchema({ minCents: 2000, maxCents: 50_000 }, '2026-05-12');
  const valid = {
    amount: '50',
    recipientName: 'Mamie Jeanne',
    recipientEmail: 'jeanne@example.fr',
    delivery: 'email',
    sendDate: '2026-05-12',
  };

  function errors(input: Record<string, unknown>) {
    const result = schema.safeParse(input);
    return result.success ? {} : Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
  }

  it('gives the purchase, amount in cents', () => {
    expect(schema.parse({ ...valid, message: 'Joyeux anniversaire\r\n\r\nBises ', sendDate: ' 2026-06-01 ' })).toEqual({
      amountCents: 5000,
      recipientName: 'Mamie Jeanne',
      recipientEmail: 'jeanne@example.fr',
      message: 'Joyeux anniversaire\n\nBises',
      delivery: 'email',
      sendDate: '2026-06-01',
    });
  });

  it('needs no send date for a card to print, and ignores one posted', () => {
    expect(schema.parse({ ...valid, delivery: 'print', sendDate: 'n’importe quoi' })).toMatchObject({
      delivery: 'print',
      sendDate: null,
      message: null,
    });
  });

  it.each([
    ['50', 5000],
    ['50,00', 5000],
    ['50.5', 5050],
    ['49,9', 4990],
    ['20', 2000],
    ['500,00 €', 50_000],
    [' 100 € ', 10_000],
  ])('reads the amount %j', (amount, cents) => {
    expect(schema.parse({ ...valid, amount }).amountCents).toBe(cents);
  });

  it('reads « 1 000 » typed the French way', () => {
    const wide = giftCardPurchaseSchema({ minCents: 2000, maxCents: 200_000 }, '2026-05-12');
    expect(wide.parse({ ...valid, amount: '1 000' }).amountCents).toBe(100_000);
    expect(wide.parse({ ...valid, amount: `1\u202f000,50` }).amountCents).toBe(100_050);
  });

  it.each([
    [{ amount: '19,99' }, 'amount', `Le montant doit être compris entre 20,00${NBSP}€ et 500,00${NBSP}€.`],
    [{ amount: '500,01' }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountOutOfBounds(2000, 50_000)],
    [{ amount: '50,001' }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountInvalid],
    [{ amount: '-50' }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountInvalid],
    [{ amount: 'cinquante' }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountInvalid],
    [{ amount: '  ' }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountRequired],
    [{ amount: undefined }, 'amount', GIFT_CARD_PURCHASE_MESSAGES.amountRequired],
    [{ recipientName: ' ' }, 'recipientName', 'Indiquez le nom de la personne à qui vous offrez la carte.'],
    [{ recipientName: 'x'.repeat(81) }, 'recipientName', 'Le nom est trop long (80 caractères au plus).'],
    [{ recipientName: 'Jeanne\nBcc: x@y.z' }, 'recipientName', FORBIDDEN_CHARACTER_MESSAGE],
    [{ recipientName: 'Jeanne\u0000' }, 'recipientName', FORBIDDEN_CHARACTER_MESSAGE],
    [{ recipientEmail: '' }, 'recipientEmail', GIFT_CARD_PURCHASE_MESSAGES.recipientEmailRequired],
    [{ recipientEmail: 'jeanne' }, 'recipientEmail', 'Cette adresse e-mail n’est pas valide.'],
    [
      { recipientEmail: `${'a'.repeat(250)}@x.fr` },
      'recipientEmail',
      GIFT_CARD_PURCHASE_MESSAGES.recipientEmailTooLong,
    ],
    [{ message: 'x'.repeat(501) }, 'message', 'Le message est trop long (500 caractères au plus).'],
    [{ message: 'Bises\u0007' }, 'message', FORBIDDEN_CHARACTER_MESSAGE],
    [{ delivery: 'pigeon' }, 'delivery', `Choisissez comment offrir la carte${NBSP}: par e-mail ou à imprimer.`],
    [{ sendDate: '' }, 'sendDate', GIFT_CARD_PURCHASE_MESSAGES.sendDateRequired],
    [{ sendDate: undefined }, 'sendDate', GIFT_CARD_PURCHASE_MESSAGES.sendDateRequired],
    [{ sendDate: '2026-05-11' }, 'sendDate', 'Choisissez une date d’envoi entre aujourd’hui et dans un an.'],
    [{ sendDate: '2027-05-13' }, 'sendDate', GIFT_CARD_PURCHASE_MESSAGES.sendDateOutOfRange],
    [{ sendDate: '2026-02-30' }, 'sendDate', GIFT_CARD_PURCHASE_MESSAGES.sendDateOutOfRange],
    [{ sendDate: '12/06/2026' }, 'sendDate', GIFT_CARD_PURCHASE_MESSAGES.sendDateOutOfRange],
  ])('refuses %j', (change, field, message) => {
    expect(errors({ ...valid, ...change })).toEqual({ [field]: message });
  });

  it('accepts a message of 500 characters with its line breaks, and a send date a year ahead', () => {
    const message = `${'x'.repeat(249)}\r\n${'y'.repeat(250)}`;
    expect(schema.parse({ ...valid, message, sendDate: '2027-05-12' })).toMatchObject({
      message: message.replace('\r\n', '\n'),
      sendDate: '2027-05-12',
    });
  });

  it('names every wrong field at once', () => {
    expect(errors({ amount: '5', recipientEmail: 'x', delivery: 'email' })).toEqual({
      amount: GIFT_CARD_PURCHASE_MESSAGES.amountOutOfBounds(2000, 50_000),
      recipientName: GIFT_CARD_PURCHASE_MESSAGES.recipientNameRequired,
      recipientEmail: GIFT_CARD_PURCHASE_MESSAGES.recipientEmailInvalid,
      sendDate: GIFT_CARD_PURCHASE_MESSAGES.sendDateRequired,
    });
  });

  it('names a wrong send date beside an empty name and an empty address', () => {
    expect(
      errors({
        ...valid,
        amount: '5',
        recipientName: ' ',
        recipientEmail: '',
        delivery: 'email',
        sendDate: '2026-05-10',
      }),
    ).toEqual({
      amount: GIFT_CARD_PURCHASE_MESSAGES.amountOutOfBounds(2000, 50_000),
      recipientName: GIFT_CARD_PURCHASE_MESSAGES.recipientNameRequired,
      recipientEmail: GIFT_CARD_PURCHASE_MESSAGES.recipientEmailRequired,
      sendDate: GIFT_CARD_PURCHASE_MESSAGES.sendDateOutOfRange,
    });
  });

  it('refuses bounds or a day that make no sense', () => {
    expect(() => giftCardPurchaseSchema({ minCents: 5000, maxCents: 2000 }, '2026-05-12')).toThrow(RangeError);
    expect(() => giftCardPurchaseSchema({ minCents: 2000, maxCents: 5000 }, '12/05/2026')).toThrow(RangeError);
  });
});

describe('giftCardSaleSummary', () => {
  const sale = { amountCents: 5000, recipientName: 'Jeanne Martin' };

  it('tells a card e-mailed on a day, that day as the Paris calendar has it', () => {
    expect(giftCardSaleSummary({ ...sale, delivery: 'email', sendOn: '2026-12-21' })).toBe(
      `Carte cadeau Soovenirs de 50,00${NBSP}€ pour Jeanne Martin, envoyée par e-mail le 21/12/2026`,
    );
    // The last day of March: summer time starts that night.
    expect(giftCardSaleSummary({ ...sale, delivery: 'email', sendOn: '2027-03-28' })).toContain('le 28/03/2027');
  });

  it('tells a card to print, and a card without a day as its e-mails treat it: printed', () => {
    const printed = `Carte cadeau Soovenirs de 50,00${NBSP}€ pour Jeanne Martin, à imprimer`;
    expect(giftCardSaleSummary({ ...sale, delivery: 'print', sendOn: null })).toBe(printed);
    expect(giftCardSaleSummary({ ...sale, delivery: 'email', sendOn: null })).toBe(printed);
    expect(giftCardSentByEmail({ delivery: 'email', sendOn: null })).toBe(false);
    expect(giftCardSentByEmail({ delivery: 'email', sendOn: '2026-02-30' })).toBe(false);
    expect(giftCardSentByEmail({ delivery: 'email', sendOn: '2026-12-21' })).toBe(true);
    expect(giftCardSentByEmail({ delivery: 'print', sendOn: '2026-12-21' })).toBe(false);
  });
});
