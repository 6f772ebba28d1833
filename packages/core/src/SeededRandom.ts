/**
 * A small seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same sequence, so
 * a run that draws from it (fault probabilities, random latency, the soak run's load) can be repeated.
 * Not for anything that must be unpredictable.
 *
 * @since 0.1.0
 */

/**
 * Draws the next number in [0, 1).
 *
 * @since 0.1.0
 * @category models
 */
export type SeededRandom = () => number

/**
 * A generator seeded with `seed` (taken as an unsigned 32-bit integer).
 *
 * @example
 * ```ts
 * import * as SeededRandom from "@community-api/core/SeededRandom"
 * import { strictEqual } from "node:assert"
 *
 * const draw = SeededRandom.make(42)
 * const again = SeededRandom.make(42)
 * const first = draw()
 *
 * strictEqual(first >= 0 && first < 1, true)
 * // The same seed, the same sequence.
 * strictEqual(again(), first)
 * strictEqual(again(), draw())
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seed: number): SeededRandom => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6D2B79F5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
