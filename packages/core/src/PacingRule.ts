/**
 * How long a pacing permit stays held after its request: the rule, apart from where permits are kept
 * (the store: this process's memory or Redis), so that every store applies the same rule.
 *
 * A permit is taken right before its request is sent and given back after the answer; the store then
 * counts it as held until `max(answer + afterAnswerMillis, take + afterTakeMillis)` on the store's
 * clock. The rule learns from how long each request held its permit (from the take to the answer).
 *
 * The server counts a request when it arrives. Request `i`, sent at `s_i`, arrives `d_i` later, and
 * `d_i` is at most its held time `h_i` (it arrived before its answer left). A request `j` that takes a
 * permit given back by `i` (or by any request whose permit was back before `j` took one: with at most
 * `limit` held at once, `limit + 1` arrivals inside one window always hold two such requests) arrives at
 * `s_j + d_j`, so it reaches the server at least a window after `i` when
 *
 *     s_j - s_i >= window + (d_i - d_j)
 *
 * The safe rule bounds `d_i - d_j` by `h_i` (`d_j >= 0`): the permit is held a window plus the margin
 * after the answer, whatever the delays. Only the variation of the delay needs a hold, though: this
 * rule bounds `d_i - d_j` by `min(h_i, spread)`, where `spread = max - min` of the held times of the
 * band (the last {@link bandSize} observations), once the band has at least
 * {@link observationsBeforeTrust} of them and `h_i` falls inside it. That bound holds when either
 *
 * - (A) every request's delay to the server is at least the band's shortest held time `min`:
 *   `d_i - d_j <= h_i - min <= max - min`; or
 * - (B) delays to the server vary by no more than the spread of held times (a held time is the delay
 *   to the server plus the way back, so it varies at least as much when the two vary independently):
 *   `d_i - d_j <= max - min`.
 *
 * The margin absorbs a breach of either by up to its length (a band estimated from few samples is a
 * little narrower than the true one). Anything the band does not cover falls back to the safe rule:
 * too few observations, a held time outside the band (the observation then widens it), and after a
 * refusal (error 5) the band is forgotten and learnt again. `docs/client.md` gives the argument and
 * what is left: a delay that falls by more than the band and the margin within a window.
 *
 * The hold is given from the answer (`afterAnswerMillis = window + margin - (h_i - min(h_i, spread))`,
 * never negative, `afterTakeMillis = 0`): a store stamps the answer on its own clock no earlier than
 * the answer came, so the hold never starts early, whenever the store stamped the take.
 *
 * Both Effect lines (and any store of theirs) apply this one rule; each wraps it in its own runtime.
 *
 * @since 0.1.0
 */
import * as Limits from "./Limits.js"

/**
 * The rule's settings: the store's limit, the window and the margin, in milliseconds.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  readonly limit: number
  readonly windowMillis: number
  readonly marginMillis: number
}

/**
 * The default settings: the API's limit (30 per 1000 ms, from `Limits`) and a 20 ms margin past the
 * window, against the granularity of clocks.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults: Settings = {
  limit: Limits.requestsPerWindow,
  windowMillis: Limits.rateWindowMillis,
  marginMillis: 20
}

/**
 * How long a given-back permit still counts as held, on the store's clock: until the later of the
 * answer plus `afterAnswerMillis` and the take plus `afterTakeMillis` ({@link heldUntil}). The rule
 * decides it; the store keeps it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Hold {
  readonly afterAnswerMillis: number
  readonly afterTakeMillis: number
}

/**
 * When a permit taken at `takenAt` and given back at `answeredAt` (both on the store's clock) comes
 * back: the later of the two ends of its {@link Hold}.
 *
 * @since 0.1.0
 * @category utils
 */
export const heldUntil = (hold: Hold, takenAt: number, answeredAt: number): number =>
  Math.max(answeredAt + hold.afterAnswerMillis, takenAt + hold.afterTakeMillis)

/**
 * The safe hold after an answer, and how long every take of a user is blocked after the server
 * refused one of its requests for the rate (error 5): a window plus the margin.
 *
 * @since 0.1.0
 * @category utils
 */
export const penaltyMillis = (settings: Pick<Settings, "windowMillis" | "marginMillis">): number =>
  settings.windowMillis + settings.marginMillis

/**
 * The rule of one user's permits in one process.
 *
 * @since 0.1.0
 * @category models
 */
export interface Rule {
  /** The hold of a permit whose request held it `heldMillis` (take to answer), learnt from. */
  readonly holdAfter: (heldMillis: number) => Hold
  /** The server refused a request for the rate (error 5): trust nothing learnt so far. */
  readonly refused: () => void
}

/**
 * Observations the band needs before the rule leaves the safe one: the spread of `n` samples of a
 * uniform delay covers `(n - 1) / (n + 1)` of its true range on average, 94% at 30 (3 ms short of a
 * 50 ms band, well inside the margin).
 *
 * @since 0.1.0
 * @category constants
 */
export const observationsBeforeTrust = 30

/**
 * The band is made of the last this many held times (two windows at the full rate), so that one slow
 * answer widens it for a while, not for ever.
 *
 * @since 0.1.0
 * @category constants
 */
export const bandSize = 2 * observationsBeforeTrust

/**
 * The safe rule: every permit held a window plus the margin after its answer, learning nothing.
 *
 * @since 0.1.0
 * @category constructors
 */
export const safe = (settings: Settings): Rule => {
  const hold: Hold = { afterAnswerMillis: penaltyMillis(settings), afterTakeMillis: 0 }
  return { holdAfter: () => hold, refused: () => {} }
}

/**
 * The rule at real latency: the safe hold less the part of the held time that the band shows to be
 * the same for every request (see the top of this module).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: Settings): Rule => {
  const full = penaltyMillis(settings)
  // A ring of the last `bandSize` held times.
  const band = new Float64Array(bandSize)
  let size = 0
  let next = 0
  const observe = (held: number) => {
    band[next] = held
    next = (next + 1) % bandSize
    if (size < bandSize) size++
  }
  return {
    holdAfter: (heldMillis) => {
      const held = Math.max(0, heldMillis)
      let credit = 0
      if (size >= observationsBeforeTrust) {
        let min = Infinity
        let max = -Infinity
        for (let k = 0; k < size; k++) {
          const h = band[k]!
          if (h < min) min = h
          if (h > max) max = h
        }
        // Outside the band (slower or faster than any of it), the delays are not what was learnt.
        if (held >= min && held <= max) credit = held - Math.min(held, max - min)
      }
      observe(held)
      return { afterAnswerMillis: Math.max(0, full - credit), afterTakeMillis: 0 }
    },
    refused: () => {
      size = 0
      next = 0
    }
  }
}
