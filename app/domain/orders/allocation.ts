/*
 * Splitting one amount of money over several documents or payments (decision 022): an order and its
 * paid reception supplement have two invoices and may have two card payments, so a refund of both
 * gives one credit note per invoice and one gateway refund per payment, each at most what remains
 * of it. Pure.
 */

/**
 * `amount` taken from `capacities` in order, each part at most its capacity (a negative capacity
 * counts as 0); null when together they cannot hold it.
 */
export function allocate(amount: number, capacities: readonly number[]): number[] | null {
  let left = amount;
  const plan = capacities.map((capacity) => {
    const take = Math.max(0, Math.min(left, capacity));
    left -= take;
    return take;
  });
  return left === 0 ? plan : null;
}
