/*
 * Setup file of the e2e project: a request a test sends gets an answer within FETCH_TIMEOUT_MS or
 * fails, naming its address. Node's fetch waits five minutes for response headers, so a server that
 * never answered one request showed only as « Test timed out » after the test's whole budget, with
 * no clue which request it was. A call that passes its own `signal` keeps it.
 */
const FETCH_TIMEOUT_MS = 90_000;

// Node's own fetch, kept once: a worker running several files evaluates this file for each.
const holder = globalThis as typeof globalThis & { unboundedFetch?: typeof fetch };
holder.unboundedFetch ??= globalThis.fetch;
const unbounded = holder.unboundedFetch;

globalThis.fetch = (input, init) => {
  if (init?.signal) return unbounded(input, init);
  const address = input instanceof Request ? input.url : String(input);
  return unbounded(input, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }).catch((error: unknown) => {
    if ((error as Error | undefined)?.name === 'TimeoutError') {
      throw new Error(`no answer from ${init?.method ?? 'GET'} ${address} within ${FETCH_TIMEOUT_MS / 1000} s`, {
        cause: error,
      });
    }
    throw error;
  });
};
