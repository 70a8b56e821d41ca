import { describe, expect, it } from 'vitest';
import { documentNumberMatch, escapeLike, hasSearchCriteria, numberYears, textPattern } from './search';

const YEARS = [2026, 2025];

describe('search terms', () => {
  it.each([
    ['Martin', '%martin%'],
    ['  jeanne@EXAMPLE.fr ', '%jeanne@example.fr%'],
    ['50%_off', '%50\\%\\_off%'],
    ['ab', null],
  ])('matches text %s with %s', (q, pattern) => {
    expect(textPattern(q)).toBe(pattern);
  });

  it.each([
    ['42', 'SV', { exact: ['SV-2026-000042', 'SV-2025-000042'], range: null }],
    ['000042', 'SV', { exact: ['SV-2026-000042', 'SV-2025-000042'], range: null }],
    ['2026-42', 'FA', { exact: ['FA-2026-000042'], range: null }],
    ['SV-2026-000042', 'SV', { exact: ['SV-2026-000042'], range: null }],
    ['sv2026000042', 'SV', { exact: ['SV-2026-000042'], range: null }],
    ['SV-2026-0000', 'SV', { exact: [], range: ['SV-2026-0000', 'SV-2026-0000~'] }],
    ['SV-2026', 'SV', { exact: [], range: ['SV-2026', 'SV-2026~'] }],
    ['SV-2026-', 'SV', { exact: [], range: ['SV-2026-', 'SV-2026-~'] }],
    ['fa-2025', 'FA', { exact: [], range: ['FA-2025', 'FA-2025~'] }],
    ['SV-2026-0000', 'FA', { exact: [], range: null }],
    ['martin', 'SV', { exact: [], range: null }],
    ['1234567', 'SV', { exact: [], range: null }],
  ])('reads %s as numbers of %s', (q, prefix, expected) => {
    expect(documentNumberMatch(q, prefix as 'SV' | 'FA', YEARS)).toEqual(expected);
  });

  it('knows when a term can match anything', () => {
    expect(hasSearchCriteria('42', ['SV'], YEARS)).toBe(true);
    expect(hasSearchCriteria('ab', ['SV'], YEARS)).toBe(false);
    expect(escapeLike('a\\b')).toBe('a\\\\b');
    expect(numberYears(2020, 2026)).toEqual([2026, 2025, 2024, 2023, 2022, 2021, 2020]);
    expect(numberYears(2000, 2026)).toHaveLength(10);
  });
});
