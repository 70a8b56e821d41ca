/*
 * VAT of the shop's prices. Prices are set and paid including VAT (TTC:
 * "prices in euros including tax"), at 20 %. An amount's VAT is split off in integer cents:
 * excluding VAT = round(TTC / 1.2), half up, and VAT = TTC - excluding VAT, so the two always add
 * up to the amount paid. The excluding-VAT total is shared among an invoice's lines by the
 * largest-remainder method, so that the lines' excluding-VAT amounts add up exactly to it too.
 */

export const VAT_RATE_PERCENT = 20;
export const VAT_RATE = VAT_RATE_PERCENT / 100;

const HUNDRED = 100n;
const DIVISOR = BigInt(100 + VAT_RATE_PERCENT);

function checkCents(value: number, what: string): bigint {
  if (!Number.isSafeInteger(value)) throw new RangeError(`${what} must be an integer number of cents: ${value}`);
  return BigInt(value);
}

/** numerator / denominator rounded half away from zero (denominator > 0). */
function roundHalf(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const q = (2n * n + denominator) / (2n * denominator);
  return negative ? -q : q;
}

/** The amount excluding VAT of an amount including VAT: round(TTC x 100 / 120). */
export function excludingVatCents(totalCents: number): number {
  return Number(roundHalf(checkCents(totalCents, 'amount') * HUNDRED, DIVISOR));
}

/** The VAT included in an amount: TTC - round(TTC / 1.2). */
export function includedVatCents(totalCents: number): number {
  return totalCents - excludingVatCents(totalCents);
}

export interface VatSplit {
  totalExcludingVatCents: number;
  vatCents: number;
  totalCents: number;
}

export function splitVat(totalCents: number): VatSplit {
  const totalExcludingVatCents = excludingVatCents(totalCents);
  return { totalExcludingVatCents, vatCents: totalCents - totalExcludingVatCents, totalCents };
}

/**
 * Shares `total` among parts in proportion to `weights` (integers), in integer cents that add up
 * exactly to `total`: each part gets the floor of its exact share, and the cents left over go to
 * the parts with the largest remainders (the first ones on a tie). Weights must not be negative;
 * all-zero weights share nothing but give the whole total to the first part.
 */
export function allocateCents(total: number, weights: readonly number[]): number[] {
  if (weights.length === 0) return [];
  const t = checkCents(total, 'total');
  const w = weights.map((weight, i) => {
    const value = checkCents(weight, `weight ${i}`);
    if (value < 0n) throw new RangeError(`weight ${i} is negative: ${weight}`);
    return value;
  });
  const sum = w.reduce((a, b) => a + b, 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const negative = t < 0n;
  const magnitude = negative ? -t : t;
  const shares = w.map((weight) => (magnitude * weight) / sum);
  const remainders = w.map((weight, i) => ({ i, r: (magnitude * weight) % sum }));
  let left = magnitude - shares.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (a.r === b.r ? a.i - b.i : a.r > b.r ? -1 : 1));
  for (const { i } of remainders) {
    if (left === 0n) break;
    shares[i] = (shares[i] as bigint) + 1n;
    left -= 1n;
  }
  return shares.map((share) => Number(negative ? -share : share));
}

/**
 * The excluding-VAT amounts of an invoice's lines (amounts including VAT): shares of the total
 * excluding VAT, so that they add up to it. A negative line (an adjustment) keeps its own
 * rounded amount and the others share the rest.
 */
export function linesExcludingVat(lineTotalsCents: readonly number[]): number[] {
  const total = lineTotalsCents.reduce((a, b) => a + b, 0);
  const totalExcludingVat = excludingVatCents(total);
  if (lineTotalsCents.every((cents) => cents >= 0)) return allocateCents(totalExcludingVat, lineTotalsCents);
  const fixed = lineTotalsCents.map((cents) => (cents < 0 ? excludingVatCents(cents) : 0));
  const rest = totalExcludingVat - fixed.reduce((a, b) => a + b, 0);
  const shared = allocateCents(
    rest,
    lineTotalsCents.map((cents) => Math.max(cents, 0)),
  );
  return lineTotalsCents.map((cents, i) => (cents < 0 ? (fixed[i] as number) : (shared[i] as number)));
}

/**
 * A line's unit price excluding VAT, as a decimal number of euros with four decimals ("0.3792"):
 * its excluding-VAT total divided by its quantity, rounded half away from zero. Invoices state it
 * (a compulsory mention) and the e-invoice's net price carries it; four decimals, because a cent
 * would not multiply back to the line's total for items priced below a euro.
 */
export function unitPriceExcludingVat(totalExcludingVatCents: number, quantity: number): string {
  if (!Number.isSafeInteger(quantity) || quantity <= 0) throw new RangeError(`quantity must be positive: ${quantity}`);
  // Ten-thousandths of a euro = hundredths of a cent.
  const units = roundHalf(checkCents(totalExcludingVatCents, 'amount') * HUNDRED, BigInt(quantity));
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(5, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -4)}.${digits.slice(-4)}`;
}
