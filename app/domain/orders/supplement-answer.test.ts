import { parseWithZod } from '@conform-to/zod/v4';
import { describe, expect, it } from 'vitest';
import { SUPPLEMENT_ANSWER_MESSAGES, supplementAnswerSchema } from './supplement-answer';

function answer(intent?: string) {
  const formData = new FormData();
  if (intent !== undefined) formData.set('intent', intent);
  return parseWithZod(formData, { schema: supplementAnswerSchema });
}

describe('the answer to a supplement', () => {
  it('pays on « Payer le supplément » and on a post without a button', () => {
    expect(answer('pay')).toMatchObject({ status: 'success', value: 'pay' });
    expect(answer()).toMatchObject({ status: 'success', value: 'pay' });
  });

  it('asks for a confirmation on « Refuser », and declines on « Confirmer le refus »', () => {
    expect(answer('decline')).toMatchObject({ status: 'success', value: 'decline' });
    expect(answer('confirm-decline')).toMatchObject({ status: 'success', value: 'confirm-decline' });
  });

  it('refuses anything else in French, as the form’s own message', () => {
    const submission = answer('pay\u0000');
    expect(submission.status).toBe('error');
    expect(submission.reply().error?.['']).toEqual([SUPPLEMENT_ANSWER_MESSAGES.unknownAction]);
  });
});
