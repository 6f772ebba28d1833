/**
 * Small statistics over samples.
 */

/** The `q` quantile (0..1) of `samples`, by linear interpolation. */
export const quantile = (samples: ReadonlyArray<number>, q: number): number => {
  if (samples.length === 0) return Number.NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (sorted.length - 1) * q
  const low = Math.floor(at)
  const high = Math.ceil(at)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low)
}

/** The median of `samples`. */
export const median = (samples: ReadonlyArray<number>): number => quantile(samples, 0.5)

/** Rounds to `digits` decimals (for the table and the JSON). */
export const round = (value: number, digits = 2): number => {
  const f = 10 ** digits
  return Math.round(value * f) / f
}
