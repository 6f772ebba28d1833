/**
 * The priority lanes of a user's requests. A person waiting on a page and a batch job of the same
 * account share its 30 requests a second; a call marked `interactive` takes the next free permit
 * ahead of every queued `batch` call of the user in the process, and across processes on Redis a
 * share of each window is kept for interactive calls ({@link defaults}).
 *
 * `interactive` is the default: a call is batch only when asked (a stream over many pages, a job).
 *
 * @since 0.1.0
 */

/**
 * A lane: `interactive` (someone waits for the answer) or `batch` (a job that can wait).
 *
 * @since 0.1.0
 * @category models
 */
export type Lane = "interactive" | "batch"

/**
 * The lanes, the first served first.
 *
 * @since 0.1.0
 * @category constants
 */
export const lanes: ReadonlyArray<Lane> = ["interactive", "batch"]

/**
 * The defaults: a call is `interactive` unless marked; across processes on Redis, 20% of each
 * window's permits (6 of 30) are kept for interactive calls while one waited within the last window,
 * and lent to batch calls otherwise, so that a fleet of batch jobs alone still reaches the full rate.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  lane: "interactive" as Lane,
  interactiveShare: 0.2
} as const

/**
 * Whether a value names a lane.
 *
 * @since 0.1.0
 * @category guards
 */
export const isLane = (value: unknown): value is Lane => value === "interactive" || value === "batch"

/**
 * The permits kept for interactive calls out of `limit`, for a share between 0 and 1 (rounded
 * down, and never all of them: a batch call always has at least one permit it may take).
 *
 * @since 0.1.0
 * @category constructors
 */
export const reserved = (limit: number, share: number): number => {
  if (!(share >= 0 && share <= 1)) throw new RangeError(`the interactive share is a number from 0 to 1, not ${share}`)
  return Math.min(Math.floor(limit * share), limit - 1)
}

/**
 * The lane of a call: its mark, else its client's lane, else the default (`interactive`).
 *
 * @example
 * ```ts
 * import * as Lane from "@community-api/core/Lane"
 * import { strictEqual } from "node:assert"
 *
 * // A call's own mark wins, then its client's lane, then `interactive`.
 * strictEqual(Lane.of("batch", "interactive"), "batch")
 * strictEqual(Lane.of(undefined, "batch"), "batch")
 * strictEqual(Lane.of(undefined, undefined), "interactive")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const of = (marked: Lane | undefined, clientLane: Lane | undefined): Lane =>
  marked ?? clientLane ?? defaults.lane
