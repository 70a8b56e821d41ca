import { describe, expect, it } from 'vitest';
import { allocate } from './allocation';

describe('allocate', () => {
  it('fills the first capacity, then the next', () => {
    expect(allocate(10_190, [9_490, 700])).toEqual([9_490, 700]);
    expect(allocate(5_000, [9_490, 700])).toEqual([5_000, 0]);
    expect(allocate(9_600, [9_490, 700])).toEqual([9_490, 110]);
  });

  it('skips what is already used up, and refuses more than all of them hold', () => {
    expect(allocate(300, [0, -5, 700])).toEqual([0, 0, 300]);
    expect(allocate(10_191, [9_490, 700])).toBeNull();
    expect(allocate(1, [])).toBeNull();
    expect(allocate(0, [])).toEqual([]);
  });
});
