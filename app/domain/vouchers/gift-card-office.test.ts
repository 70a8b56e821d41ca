import { describe, expect, it } from 'vitest';
import { NBSP } from '../format';
import {
  GIFT_CARD_OFFICE_MESSAGES,
  giftCardExtension,
  giftCardLatestExpiry,
  parseGiftCardSearch,
} from './gift-card-office';
import {
  formatGiftCardCode,
  GIFT_CARD_ENTRY_DIRECTION,
  type GiftCardState,
  generateGiftCardCode,
  giftCardExpiresAt,
  readGiftCardSymbols,
} from './gift-cards';

const code = generateGiftCardCode(Uint8Array.from([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9]));
const M = GIFT_CARD_OFFICE_MESSAGES;

describe('what the staff type, read as a code', () => {
  it.each([
    ['6WAB', '6WAB'],
    ['6wab', '6WAB'],
    ['••••-••••-••••-6WAB', '6WAB'],
    [' 6W-AB ', '6WAB'],
    // Read as a printed card is: O is 0, I and L are 1.
    ['O1LI', '0111'],
    [formatGiftCardCode(code).toLowerCase(), code],
    // U is not a symbol of the alphabet, nor @ or an accent.
    ['PAUL', null],
    ['6W@B', null],
    ['Zoé', null],
    ['', null],
    ['•••• ', null],
  ])('%s → %s', (input, symbols) => {
    expect(readGiftCardSymbols(input)).toBe(symbols);
  });
});

describe('the back office’s search', () => {
  it('reads a whole code in any form the card may be typed in', () => {
    for (const typed of [
      code,
      formatGiftCardCode(code),
      formatGiftCardCode(code).toLowerCase(),
      ` ${code.match(/.{4}/g)?.join(' ')} `,
    ]) {
      expect(parseGiftCardSearch(typed)).toEqual({ kind: 'code', code });
    }
  });

  it('says a code with a typo is one, rather than searching it as a name', () => {
    const last = code.at(-1) === '0' ? '1' : '0';
    expect(parseGiftCardSearch(`${code.slice(0, 15)}${last}`)).toEqual({ kind: 'bad-code' });
    expect(parseGiftCardSearch(formatGiftCardCode(`${code.slice(1, 2)}${code.slice(0, 1)}${code.slice(2)}`))).toEqual(
      code[0] === code[1] ? { kind: 'code', code } : { kind: 'bad-code' },
    );
  });

  it.each([
    ['', { kind: 'all' }],
    ['   ', { kind: 'all' }],
    ['6WAB', { kind: 'terms', tail: '6WAB', pattern: '%6wab%' }],
    ['••••-••••-••••-6WAB', { kind: 'terms', tail: '6WAB', pattern: '%••••-••••-••••-6wab%' }],
    ['Martin', { kind: 'terms', tail: null, pattern: '%martin%' }],
    // Four symbols that are also a name: both are searched.
    ['Anna', { kind: 'terms', tail: 'ANNA', pattern: '%anna%' }],
    ['jeanne@example.fr', { kind: 'terms', tail: null, pattern: '%jeanne@example.fr%' }],
    ['100%_sûr', { kind: 'terms', tail: null, pattern: '%100\\%\\_sûr%' }],
    // Too short for the trigram index, and not four symbols.
    ['ab', { kind: 'terms', tail: null, pattern: null }],
    ['6WA', { kind: 'terms', tail: null, pattern: '%6wa%' }],
    // Sixteen letters, no digit: a name, searched as one.
    ['Donateurabcdefgh', { kind: 'terms', tail: null, pattern: '%donateurabcdefgh%' }],
    ['Vandenberghesens', { kind: 'terms', tail: null, pattern: '%vandenberghesens%' }],
    // …but typed as a code is, it is one.
    ['VAND-ENBE-RGHE-SENS', { kind: 'bad-code' }],
  ])('%j → %j', (q, search) => {
    expect(parseGiftCardSearch(q)).toEqual(search);
  });
});

describe('extending a card', () => {
  // Bought on 29/11/2026 at 11:00 in Paris, valid 12 months: until 29/11/2027 at 11:00.
  const issuedAt = new Date('2026-11-29T10:00:00Z');
  const expiresAt = giftCardExpiresAt(issuedAt, 12);
  const card = (state: GiftCardState = 'active') => ({ issuedAt, expiresAt, state });

  it('ends 24 months after the issue at most, at the same Paris hour', () => {
    expect(giftCardLatestExpiry(issuedAt)).toEqual(new Date('2028-11-29T10:00:00Z'));
  });

  it.each([
    // Summer time in Paris: 11:00 is 09:00 UTC.
    ['2028-05-01', new Date('2028-05-01T09:00:00Z')],
    ['2027-11-30', new Date('2027-11-30T10:00:00Z')],
    ['2028-11-29', new Date('2028-11-29T10:00:00Z')],
    [' 2028-01-15 ', new Date('2028-01-15T10:00:00Z')],
  ])('accepts %s → %s', (day, until) => {
    expect(giftCardExtension(card(), day)).toEqual({ ok: true, expiresAt: until });
  });

  it('accepts a card with nothing left: money may still come back to it', () => {
    expect(giftCardExtension(card('spent'), '2028-01-15').ok).toBe(true);
  });

  it.each([
    ['2027-11-29', M.notLater(expiresAt)],
    ['2027-06-01', M.notLater(expiresAt)],
    ['2028-11-30', M.beyondMax(new Date('2028-11-29T10:00:00Z'))],
    ['2030-01-01', M.beyondMax(new Date('2028-11-29T10:00:00Z'))],
    ['2028-02-30', M.dayRequired],
    ['15/01/2028', M.dayRequired],
    ['', M.dayRequired],
  ])('refuses %s', (day, message) => {
    expect(giftCardExtension(card(), day)).toEqual({ ok: false, message });
  });

  it('refuses a closed card, whatever the day', () => {
    for (const state of ['expired', 'canceled'] as const) {
      expect(giftCardExtension(card(state), '2028-01-15')).toEqual({ ok: false, message: M.closedExtend });
    }
  });

  it('words its refusals in French, with a no-break space before the colon', () => {
    expect(M.notLater(expiresAt)).toBe('La nouvelle date doit être après la fin de validité actuelle, le 29/11/2027.');
    expect(M.beyondMax(giftCardLatestExpiry(issuedAt))).toBe(
      `Une carte est valable au plus 24 mois après son émission${NBSP}: au plus tard le 29/11/2028.`,
    );
    for (const message of [M.badCode, M.closedExtend, M.closedResend, M.noHolderEmail])
      expect(message).not.toMatch(/ [:;!?]/);
  });
});

describe('the ledger’s signs', () => {
  it('add what is issued or given back, take what is spent, expired or refunded (the SQL sums use them)', () => {
    expect(GIFT_CARD_ENTRY_DIRECTION).toEqual({ issued: 1, spent: -1, restored: 1, expired: -1, refunded: -1 });
  });
});
