import type { WithdrawalState } from '~/domain/account/withdrawal';
import type { WithdrawalExplanation } from '~/domain/account/withdrawal-texts';

/** The money and the originals, in words (domain/account/withdrawal-texts.ts). */
export type WithdrawalWords = Pick<WithdrawalExplanation, 'money' | 'originals'>;

/**
 * What a page needs to know of an order's right of withdrawal (computed by the server, at its time);
 * `words`, when the page tells what withdrawing means (open) or meant (withdrawn) for this order.
 */
export type WithdrawalView =
  | { kind: 'open'; lastDay: Date; words?: WithdrawalWords }
  | { kind: 'expired'; lastDay: Date }
  | { kind: 'withdrawn'; withdrawnAt: Date; words?: WithdrawalWords }
  | { kind: 'canceled' }
  | { kind: 'draft' }
  | { kind: 'performed' };

export function toWithdrawalView(state: WithdrawalState, words?: WithdrawalExplanation | null): WithdrawalView {
  const told = words ? { words: { money: words.money, originals: words.originals } } : {};
  switch (state.kind) {
    case 'open':
      return { kind: 'open', lastDay: state.lastDay, ...told };
    case 'expired':
      return { kind: state.kind, lastDay: state.lastDay };
    case 'withdrawn':
      return { kind: 'withdrawn', withdrawnAt: state.withdrawnAt, ...told };
    case 'performed':
      return { kind: 'performed' };
    case 'draft':
      return { kind: 'draft' };
    default:
      return { kind: 'canceled' };
  }
}
