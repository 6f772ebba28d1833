/**
 * The creation quota's decisions over a store of counts, sans I/O: what a creation does with the
 * store's verdict (it is counted, it waits until the minute resets, or it is refused), what confirming
 * it right before it is sent gives, and what is said when a store could not record a refund, a
 * used-up window or a look at the counts (the server's own count still holds then). Both lines carry
 * them out with their Effect: the store and its clock, the sleep, the failure and the log are theirs.
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import type * as Limits from "./Limits.js"
import type { Kind, TypeLambda } from "./RedisPermitStore.js"
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

/**
 * What every creation quota service shows, in a line's effects: `Count` its effect of the time a
 * creation was counted at (failing when the quota refuses it or its store fails), `Void` its effect of
 * nothing that never fails, `UsedUp` its effect of the window used up now, `Creations` and `Estimate`
 * its effects of a budget and an estimate, `Deadline` its instant.
 *
 * @since 0.1.0
 * @category models
 */
export interface Shape<Count, Void, UsedUp, Creations, Estimate, Deadline> {
  /**
   * Counts one creation of `user`, waiting for the next minute when the minute is used up and
   * `onExhausted` is `"wait"`. Gives the time the creation was counted at, on the store's clock.
   * Fails with `LimiterUnavailable` (nothing sent) when a shared store cannot be reached.
   */
  readonly acquire: (user: string, operation: string, onExhausted: OnExhausted) => Count
  /**
   * Called right before a creation counted at `taken` is sent: when a calendar minute began in
   * between (the creation waited for pacing), it is counted again in the current windows, since the
   * server counts it when it arrives. Fails when the current windows are used up; nothing is sent then.
   */
  readonly confirm: (user: string, operation: string, taken: number) => Count
  /** Gives back a creation counted at `taken` that the server did not count (error 9: nothing was done). */
  readonly refund: (user: string, taken: number) => Void
  /** The server refused a creation for the quota's minute: no more creations of `user` in this minute. */
  readonly exhaustMinute: (user: string) => Void
  /** The server refused a creation for the quota's day: no more creations of `user` until the day ends. */
  readonly exhaustDay: (user: string) => Void
  /** The window the count of `user` has used up now, if any (read when error 5 does not say which limit). */
  readonly usedUp: (user: string) => UsedUp
  /** What is left of the creations of `user` in the current minute and day, and when each resets. */
  readonly budget: (user: string) => Creations
  /**
   * Whether `count` creations of `user` can all be sent by `deadline` as the quota stands now (counting
   * the limits only, not the time the requests take): `InTime` with the instant the last can be sent,
   * or `Late` with the earliest instant they could all be sent by.
   */
  readonly estimate: (user: string, count: number, deadline: Deadline) => Estimate
}

/**
 * A store of creation counts, in a line's effects: `Verdict` its effect of a count's verdict, `Done`
 * of nothing, `UsedUp` of the window used up, `Creations` of the counts left.
 *
 * @since 0.1.0
 * @category models
 */
export interface Counts<Verdict, Done, UsedUp, Creations> {
  /** Counts one creation of `user` now, or says which window is used up. */
  readonly take: (user: string) => Verdict
  /**
   * A creation counted at `taken` is about to be sent: within the same calendar minute it stays as
   * it is (`Taken` at `taken`); in a later minute it is given back and counted now, as the server
   * will count it when it arrives.
   */
  readonly retake: (user: string, taken: number) => Verdict
  /** Gives back a creation counted at `taken`, in whichever of its windows is still the current one. */
  readonly refund: (user: string, taken: number) => Done
  /** Marks `window` used up for `user` until it ends. */
  readonly exhaust: (user: string, window: Limits.CreationWindow) => Done
  /** The window the count of `user` has used up now, if any. */
  readonly usedUp: (user: string) => UsedUp
  /** What is left of the creations of `user` in the current minute and day, and when each resets. */
  readonly budget: (user: string) => Creations
}

/**
 * What the limiters of a line need of its effects (`F`, as `RedisPermitStore.Kind` reads them), with
 * `Instant` its instants of a budget.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, Instant> {
  readonly flatMap: <A, X, B, Y>(self: Kind<F, A, X>, f: (a: A) => Kind<F, B, Y>) => Kind<F, B, X | Y>
  readonly map: <A, X, B>(self: Kind<F, A, X>, f: (a: A) => B) => Kind<F, B, X>
  readonly succeed: <A>(value: A) => Kind<F, A, never>
  /** The result of `f`, made when the effect runs. */
  readonly sync: <A>(f: () => A) => Kind<F, A, never>
  readonly fail: <X>(error: X) => Kind<F, never, X>
  /** Sleeps `millis`. */
  readonly sleep: (millis: number) => Kind<F, void, never>
  /** Sleeps `millis` without keeping the process alive (for a sweeper no call waits for). */
  readonly idle: (millis: number) => Kind<F, void, never>
  /** The time now, in epoch milliseconds (the line's clock). */
  readonly clock: Kind<F, number, never>
  /** `self`, or `otherwise` once the line `say` makes of its failure is logged at debug level. */
  readonly logged: <A, X>(self: Kind<F, A, X>, say: (error: X) => string, otherwise: A) => Kind<F, A, never>
  /** The line's instant of epoch milliseconds. */
  readonly instant: (epochMillis: number) => Instant
}

/**
 * What a line gives its creation quota: its effects, its error of a refused creation, and how it
 * reads a deadline.
 *
 * @since 0.1.0
 * @category models
 */
export interface Line<F extends TypeLambda, Instant, Deadline, Exceeded> extends Effects<F, Instant> {
  /** The line's error of a creation of `operation` refused because `window` is used up until `resetsAt`. */
  readonly exceeded: (operation: string, window: Limits.CreationWindow, resetsAt: Instant) => Exceeded
  /** The epoch milliseconds of a deadline. */
  readonly epochMillis: (deadline: Deadline) => number
}

/**
 * The quota service of a line over a store of counts in its effects: the decisions above carried out,
 * the counting in the store; what a store could not record is logged (the server's own count still
 * holds).
 *
 * @since 0.1.0
 * @category constructors
 */
export const service = <F extends TypeLambda, Instant, Deadline, Exceeded>(
  line: Line<F, Instant, Deadline, Exceeded>
) =>
<E>(
  store: Counts<
    Kind<F, RedisScripts.Verdict, E>,
    Kind<F, void, E>,
    Kind<F, Limits.CreationWindow | undefined, E>,
    Kind<F, Budget.Creations, E>
  >
): Shape<
  Kind<F, number, Exceeded | E>,
  Kind<F, void, never>,
  Kind<F, Limits.CreationWindow | undefined, never>,
  Kind<F, Budget.Creations<Instant>, E>,
  Kind<F, Budget.Estimate<Instant>, E>,
  Deadline
> => {
  const sent = (operation: string, decision: Counted | Refused): Kind<F, number, Exceeded> =>
    decision._tag === "Counted"
      ? line.succeed(decision.at)
      : line.fail(line.exceeded(operation, decision.window, line.instant(decision.resetsAt)))
  const acquire = (user: string, operation: string, onExhausted: OnExhausted): Kind<F, number, Exceeded | E> =>
    line.flatMap(store.take(user), (verdict) => {
      const decision = acquired(verdict, onExhausted)
      return decision._tag === "Wait"
        ? line.flatMap(line.sleep(decision.millis), () => acquire(user, operation, onExhausted))
        : sent(operation, decision)
    })
  const recorded = <A>(what: Unrecorded, effect: Kind<F, A, E>, otherwise: A) =>
    line.logged(effect, (error) => notStored(what, error), otherwise)
  return {
    acquire,
    confirm: (user, operation, taken) =>
      line.flatMap(store.retake(user, taken), (verdict) => sent(operation, confirmed(verdict))),
    refund: (user, taken) => recorded("refund", store.refund(user, taken), undefined),
    exhaustMinute: (user) => recorded("minute", store.exhaust(user, "minute"), undefined),
    exhaustDay: (user) => recorded("day", store.exhaust(user, "day"), undefined),
    usedUp: (user) => recorded("usedUp", store.usedUp(user), undefined),
    budget: (user) => line.map(store.budget(user), (budget) => Budget.mapInstants(budget, line.instant)),
    estimate: (user, count, deadline) =>
      line.flatMap(
        store.budget(user),
        (budget) =>
          line.map(line.clock, (now) =>
            Budget.mapInstants(Budget.estimate(budget, count, now, line.epochMillis(deadline)), line.instant))
      )
  }
}
