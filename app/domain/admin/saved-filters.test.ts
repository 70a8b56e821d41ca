import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { filterQuery, SAVED_FILTER_MESSAGES, saveFilterSchema } from './saved-filters';

function parse(name: string | null, query = '') {
  const data = new FormData();
  if (name !== null) data.set('name', name);
  data.set('query', query);
  return parseWithZod(data, { schema: saveFilterSchema });
}

const nameErrors = (name: string | null) => {
  const submission = parse(name);
  return submission.status === 'error' ? submission.error?.name : null;
};

describe('saved filters', () => {
  it('keeps the filters of the list, not the open order nor the page', () => {
    expect(filterQuery('?etape=ready&commande=abc&page=3&par_page=50')).toBe('etape=ready&par_page=50');
    const submission = parse('  Prêtes  ', '?etape=ready&page=2');
    expect(submission.status === 'success' && submission.value).toEqual({ name: 'Prêtes', query: 'etape=ready' });
  });

  it('refuses an empty or too long name in French', () => {
    expect(nameErrors(null)).toEqual([SAVED_FILTER_MESSAGES.empty]);
    expect(nameErrors('   ')).toEqual([SAVED_FILTER_MESSAGES.empty]);
    expect(nameErrors('x'.repeat(61))).toEqual([SAVED_FILTER_MESSAGES.tooLong]);
  });
});
