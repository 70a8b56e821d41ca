import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { CONFIGURATOR_MESSAGES, configuratorPostSchema, selectionSchema } from './configurator-form';
import { DEFAULT_PRICE_LIST } from './default-price-list';

function post(entries: [string, string][]) {
  const formData = new FormData();
  for (const [name, value] of entries) formData.append(name, value);
  return parseWithZod(formData, { schema: configuratorPostSchema(DEFAULT_PRICE_LIST), disableAutoCoercion: true });
}

describe('the configurator’s posted form', () => {
  it('reads the intent, the selection and the price list version shown', () => {
    const submission = post([
      ['intent', 'order'],
      ['support', 'photos'],
      ['photos.quantity', '100'],
      ['priceListVersion', '3'],
    ]);
    expect(submission.status).toBe('success');
    if (submission.status !== 'success') return;
    expect(submission.value.intent).toBe('order');
    expect(submission.value.shownVersion).toBe(3);
    expect(submission.value.selection.supports.map((support) => support.type)).toEqual(['photos']);
  });

  it('ignores a version that is not a positive whole number', () => {
    const submission = post([
      ['intent', 'save'],
      ['support', 'vhs'],
      ['vhs.quantity', '2'],
      ['priceListVersion', 'abc'],
    ]);
    expect(submission.status === 'success' && submission.value.shownVersion).toBeNull();
  });

  it('refuses an unknown intent as the form’s own French message', () => {
    const submission = post([
      ['intent', 'steal'],
      ['support', 'photos'],
      ['photos.quantity', '100'],
    ]);
    expect(submission.status).toBe('error');
    expect(submission.reply().error?.['']).toEqual([CONFIGURATOR_MESSAGES.unknownAction]);
  });

  it('puts each rule’s French message on its field', () => {
    const submission = post([
      ['intent', 'order'],
      ['support', 'photos'],
      ['photos.quantity', '-4'],
    ]);
    expect(submission.status).toBe('error');
    expect(submission.reply().error?.['photos.quantity']?.[0]).toMatch(/^[A-ZÀ-Ý]/);
  });

  it('wants a support to order, not to estimate', () => {
    expect(post([['intent', 'order']]).status).toBe('error');
    const estimate = parseWithZod(new URLSearchParams(''), {
      schema: selectionSchema({ priceList: DEFAULT_PRICE_LIST }),
      disableAutoCoercion: true,
    });
    expect(estimate.status).toBe('success');
  });
});
