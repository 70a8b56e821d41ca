import { describe, expect, it } from 'vitest';
import { countOf } from '../format';
import { receivedCountText } from './reception';

const N = '\u00a0';

describe('the reception’s counts in French', () => {
  it('agrees the words with the numbers (singular for 0 and 1)', () => {
    expect(receivedCountText({ label: 'Photos papier', counted: 1, ordered: 1 })).toBe(
      `Photos papier${N}: 1${N}reçu pour 1${N}commandé`,
    );
    expect(receivedCountText({ label: 'Cassettes VHS', counted: 3, ordered: 2 })).toBe(
      `Cassettes VHS${N}: 3${N}reçus pour 2${N}commandés`,
    );
    expect(countOf(0, 'reçu')).toBe(`0${N}reçu`);
    expect(countOf(2, 'cheval', 'chevaux')).toBe(`2${N}chevaux`);
  });
});
