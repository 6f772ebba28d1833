/**
 * How long a pacing permit stays held after its request: the rule, apart from where permits are kept
 * (the store: this process's memory or Redis), so that every store applies the same rule.
 *
 * A permit is taken right before its request is sent and given back after the answer; the store then
 * counts it as held until `max(answer + afterAnswerMillis, take + afterTakeMillis)` on the store's
 * clock. The rule learns from how long each request held its permit (from the take to the answer).
 *
 * Today's rule holds every permit a window plus the margin after the answer: the server counted the
 * request when it arrived, which is before the answer left it, so the next request that reuses the
 * permit reaches the server more than a window after the one it replaces, however slow the server or
 * the network is.
 */

/** @internal */
export interface Settings {
  readonly limit: number
  readonly windowMillis: number
  readonly marginMillis: number
}

/**
 * How long a given-back permit still counts as held, on the store's clock: until the later of the
 * answer plus `afterAnswerMillis` and the take plus `afterTakeMillis`.
 *
 * @internal
 */
export interface Hold {
  readonly afterAnswerMillis: number
  readonly afterTakeMillis: number
}

/** The rule of one user's permits in this process. @internal */
export interface Rule {
  /** The hold of a permit whose request held it `heldMillis` (take to answer), learnt from. */
  readonly holdAfter: (heldMillis: number) => Hold
  /** The server refused a request for the rate (error 5): trust nothing learnt so far. */
  readonly refused: () => void
}

/** @internal */
export const make = (settings: Settings): Rule => {
  const safe: Hold = { afterAnswerMillis: settings.windowMillis + settings.marginMillis, afterTakeMillis: 0 }
  return {
    holdAfter: () => safe,
    refused: () => {}
  }
}
