import type { WithdrawalState } from '~/domain/account/withdrawal';

/** What a page needs to know of an order's right of withdrawal (computed by the server, at its time). */
export type WithdrawalView =
  | { kind: 'open'; lastDay: Date }
  | { kind: 'expired'; lastDay: Date }
  | { kind: 'withdrawn'; withdrawnAt: Date }
  | { kind: 'canceled' }
  | { kind: 'performed' };

export function toWithdrawalView(state: WithdrawalState): WithdrawalView {
  switch (state.kind) {
    case 'open':
    case 'expired':
      return { kind: state.kind, lastDay: state.lastDay };
    case 'withdrawn':
      return { kind: 'withdrawn', withdrawnAt: state.withdrawnAt };
    case 'performed':
      return { kind: 'performed' };
    default:
      return { kind: 'canceled' };
  }
}
