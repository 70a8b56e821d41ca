/*
 * A small seeded pseudo-random generator (sfc32), so that demo data is the same from one run to the
 * next for the same seed value. Not for anything secret.
 */

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** An integer in [min, max], small values more likely (log-uniform): quantities, counts. */
  logInt(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** One of the keys, with the probability of its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K;
}

/** A 128-bit state from any seed value (cyrb128 string hash). */
function hashSeed(value: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < value.length; i++) {
    const k = value.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

export function createRandom(seed: string | number): Random {
  let [a, b, c, d] = hashSeed(String(seed));
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // Discard the first outputs, which are poorly mixed for similar seeds.
  for (let i = 0; i < 15; i++) next();

  const weightedCache = new WeakMap<object, { keys: string[]; cumulative: number[]; total: number }>();

  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    logInt: (min, max) => {
      const value = Math.floor(Math.exp(Math.log(min) + next() * (Math.log(max + 1) - Math.log(min))));
      return Math.min(max, Math.max(min, value));
    },
    chance: (probability) => next() < probability,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    weighted: <K extends string>(weights: Readonly<Record<K, number>>): K => {
      let table = weightedCache.get(weights);
      if (!table) {
        const keys = Object.keys(weights);
        const cumulative: number[] = [];
        let total = 0;
        for (const key of keys) {
          total += weights[key as K];
          cumulative.push(total);
        }
        table = { keys, cumulative, total };
        weightedCache.set(weights, table);
      }
      const target = next() * table.total;
      for (let i = 0; i < table.cumulative.length; i++) {
        if (target < (table.cumulative[i] as number)) return table.keys[i] as K;
      }
      return table.keys[table.keys.length - 1] as K;
    },
  };
}
