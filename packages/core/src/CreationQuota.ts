/**
 * The creation quota's decisions over a store of counts, sans I/O: what a creation does with the
 * store's verdict (it is counted, it waits until the minute resets, or it is refused), what confirming
 * it right before it is sent gives, and what is said when a store could not record a refund, a
 * used-up window or a look at the counts (the server's own count still holds then). Both lines carry
 * them out with their Effect: the store and its clock, the sleep, the failure and the log are theirs.
 *
 * @since 0.1.0
 */
import type * as Limits from "./Limits.js"
import type * as RedisScripts from "./RedisScripts.js"

/**
 * What a creation does when the minute is used up: wait for the next minute, or fail at once.
 *
 * @since 0.1.0
 * @category models
 */
export type OnExhausted = "wait" | "fail"

/**
 * The creation is counted at `at` (the store's time): it may be sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Counted {
  readonly _tag: "Counted"
  readonly at: number
}

/**
 * The creation is refused: `window` is used up until `resetsAt` (the store's time); nothing is sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Refused {
  readonly _tag: "Refused"
  readonly window: Limits.CreationWindow
  readonly resetsAt: number
}

/**
 * The minute is used up and the creation waits: `millis` until it resets, then takes again.
 *
 * @since 0.1.0
 * @category models
 */
export interface Wait {
  readonly _tag: "Wait"
  readonly millis: number
}

/**
 * What a creation does with the verdict of its count ({@link acquired}).
 *
 * @since 0.1.0
 * @category models
 */
export type Acquired = Counted | Wait | Refused

/**
 * What a creation does with the store's verdict on its count: counted, or, with the minute used up
 * and `onExhausted` `"wait"`, waits until the minute resets and takes again; a used-up day, or a
 * used-up minute in `"fail"` mode, refuses it.
 *
 * @since 0.1.0
 * @category utils
 */
export const acquired = (verdict: RedisScripts.Verdict, onExhausted: OnExhausted): Acquired => {
  if (verdict._tag === "Taken") return { _tag: "Counted", at: verdict.at }
  if (verdict.window === "minute" && onExhausted === "wait") {
    // Both times are the store's: the wait does not depend on how this process's clock is set.
    return { _tag: "Wait", millis: verdict.resetsAt - verdict.now }
  }
  return { _tag: "Refused", window: verdict.window, resetsAt: verdict.resetsAt }
}

/**
 * What a creation counted earlier does with the store's verdict when it is confirmed right before it
 * is sent (counted again when a calendar minute began meanwhile, as the server counts it when it
 * arrives): sent, or refused when the current windows are used up; it never waits then.
 *
 * @since 0.1.0
 * @category utils
 */
export const confirmed = (verdict: RedisScripts.Verdict): Counted | Refused =>
  verdict._tag === "Taken"
    ? { _tag: "Counted", at: verdict.at }
    : { _tag: "Refused", window: verdict.window, resetsAt: verdict.resetsAt }

/**
 * What a store may fail to record: a refund (error 9), a used-up minute or day (error 5), a look at
 * the counts (which window is used up).
 *
 * @since 0.1.0
 * @category models
 */
export type Unrecorded = "refund" | Limits.CreationWindow | "usedUp"

const unrecorded: Record<Unrecorded, string> = {
  refund: "a refund",
  minute: "a used-up minute",
  day: "a used-up day",
  usedUp: "a look at the counts"
}

/**
 * The debug line logged when a store could not record `what`: the server's own count still holds, so
 * the call goes on.
 *
 * @since 0.1.0
 * @category utils
 */
export const notStored = (what: Unrecorded, error: unknown): string =>
  `creation quota: ${unrecorded[what]} was not stored: ${error instanceof Error ? error.message : String(error)}`
