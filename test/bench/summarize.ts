/** Median, percentiles, min and max of a series of milliseconds. */
export interface Summary {
  runs: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

/**
 * Summarize timings (nearest-rank percentiles), rounded to 0.01 ms.
 *
 * @example
 * ```ts
 * summarize([3, 1, 2]); // { runs: 3, median: 2, p95: 3, min: 1, max: 3 }
 * ```
 */
export function summarize(values: number[]): Summary {
  if (values.length === 0) throw new Error('nothing to summarize');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
  const round = (n: number): number => Math.round(n * 100) / 100;
  return { runs: sorted.length, median: round(rank(0.5)), p95: round(rank(0.95)), min: round(sorted[0] as number), max: round(sorted.at(-1) as number) };
}
