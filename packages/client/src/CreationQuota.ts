/**
 * The creation quota (L2–L5): 20 creations per calendar minute and 200 per day (the day starts at
 * 03:00 Moscow time, 00:00 UTC) per user, shared by `lists/create`, `vars/create` and
 * `globalVars/create` (every operation the contract flags as a creation). The numbers and the
 * calendar arithmetic are the contract's (`Limits` of `@community-api/schema`), the same the server
 * counts with.
 *
 * When the minute is used up a creation waits for the next minute or fails at once with
 * {@link ClientError.CreationQuotaExceeded} (the client's `onCreationLimit` setting); a used-up day
 * always fails at once, saying when it resets. Like {@link Pacing}, one service is shared by every
 * client that gets it from the same layer; **without a layer, clients use the process-wide
 * {@link global}** ({@link CreationQuota} is a `Context.Reference` with that default).
 *
 * @since 0.1.0
 */
import { Limits } from "@community-api/schema"
import { Context, DateTime, Duration, Effect, GlobalValue, Layer } from "effect"
import * as ClientError from "./ClientError.js"

/**
 * Settings of the quota.
 *
 * @since 0.1.0
 */
export interface Settings {
  /** Creations per calendar minute; default 20 (L2). */
  readonly perMinute?: number | undefined
  /** Creations per day from 03:00 Moscow time; default 200 (L2). */
  readonly perDay?: number | undefined
}

/**
 * The defaults of L2, from `Limits`: 20 a minute, 200 a day.
 *
 * @since 0.1.0
 */
export const defaults: Limits.CreationSettings = Limits.creationDefaults

/**
 * What a creation does when the minute is used up.
 *
 * @since 0.1.0
 */
export type OnExhausted = "wait" | "fail"

/**
 * The quota service.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * Counts one creation of `user`, waiting for the next minute when the minute is used up and
   * `onExhausted` is `"wait"`. Returns the time the creation was counted at.
   */
  readonly acquire: (
    user: string,
    operation: string,
    onExhausted: OnExhausted
  ) => Effect.Effect<number, ClientError.CreationQuotaExceeded>
  /**
   * Called right before a creation counted at `taken` is sent: when a calendar minute began in
   * between (the creation waited for pacing), it is counted again in the current windows, since the
   * server counts it when it arrives. Fails when the current windows are used up; nothing is sent then.
   */
  readonly confirm: (
    user: string,
    operation: string,
    taken: number
  ) => Effect.Effect<number, ClientError.CreationQuotaExceeded>
  /** Gives back a creation counted at `taken` that the server did not count (error 9: nothing was done). */
  readonly refund: (user: string, taken: number) => Effect.Effect<void>
  /** The server refused a creation for the quota's minute: no more creations of `user` in this minute. */
  readonly exhaustMinute: (user: string) => Effect.Effect<void>
  /** The server refused a creation for the quota's day: no more creations of `user` until the day ends. */
  readonly exhaustDay: (user: string) => Effect.Effect<void>
  /** The window the count of `user` has used up now, if any (read when error 5 does not say which limit). */
  readonly usedUp: (user: string) => Effect.Effect<Limits.CreationWindow | undefined>
}

/**
 * The quota service. A `Context.Reference`: when no layer provides it, it is the process-wide
 * {@link global}, so that creations are counted even when nobody asked for it and all clients of one
 * user in the process share one quota. Provide {@link layer} to choose the settings or to start from
 * empty counters (in tests).
 *
 * @since 0.1.0
 */
export class CreationQuota extends Context.Reference<CreationQuota>()("@community-api/client/CreationQuota", {
  defaultValue: (): Service => global
}) {}

/**
 * Makes a quota service with its own counters, synchronously (for {@link global}).
 *
 * @since 0.1.0
 */
export const unsafeMake = (settings: Settings = {}): Service => {
  const resolved: Limits.CreationSettings = {
    perMinute: settings.perMinute ?? defaults.perMinute,
    perDay: settings.perDay ?? defaults.perDay
  }
  const counts = new Map<string, Limits.CreationCount>()
  const countOf = (user: string) => counts.get(user) ?? Limits.emptyCount
  const exceeded = (operation: string, window: Limits.CreationWindow, resetsAt: number) =>
    new ClientError.CreationQuotaExceeded({ operation, window, resetsAt: DateTime.unsafeMake(resetsAt) })
  /** Counts one creation at `now`, or says which window is used up. */
  const take = (user: string, now: number) => {
    const verdict = Limits.takeCreation(countOf(user), now, resolved)
    if (verdict._tag === "Taken") counts.set(user, verdict.count)
    return verdict
  }
  const giveBack = (user: string, taken: number, now: number) =>
    counts.set(user, Limits.refundCreation(countOf(user), taken, now))
  const acquire = (
    user: string,
    operation: string,
    onExhausted: OnExhausted
  ): Effect.Effect<number, ClientError.CreationQuotaExceeded> =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      const verdict = take(user, now)
      if (verdict._tag === "Taken") return Effect.succeed(now)
      if (verdict.window === "minute" && onExhausted === "wait") {
        return Effect.zipRight(
          Effect.sleep(Duration.millis(verdict.resetsAt - now)),
          acquire(user, operation, onExhausted)
        )
      }
      return Effect.fail(exceeded(operation, verdict.window, verdict.resetsAt))
    })
  const confirm = (
    user: string,
    operation: string,
    taken: number
  ): Effect.Effect<number, ClientError.CreationQuotaExceeded> =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      // A day begins with a minute, so one test covers both windows.
      if (Limits.nextMinute(taken) > now) return Effect.succeed(taken)
      giveBack(user, taken, now) // still counted in today's window when the day did not change
      const verdict = take(user, now)
      return verdict._tag === "Taken"
        ? Effect.succeed(now)
        : Effect.fail(exceeded(operation, verdict.window, verdict.resetsAt))
    })
  return {
    acquire,
    confirm,
    refund: (user, taken) =>
      Effect.clockWith((clock) => Effect.sync(() => giveBack(user, taken, clock.unsafeCurrentTimeMillis()))),
    exhaustMinute: (user) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const count = Limits.rollCount(countOf(user), clock.unsafeCurrentTimeMillis())
          counts.set(user, { ...count, inMinute: Math.max(count.inMinute, resolved.perMinute) })
        })
      ),
    exhaustDay: (user) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const count = Limits.rollCount(countOf(user), clock.unsafeCurrentTimeMillis())
          counts.set(user, { ...count, inDay: Math.max(count.inDay, resolved.perDay) })
        })
      ),
    usedUp: (user) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => Limits.exhaustedWindow(countOf(user), clock.unsafeCurrentTimeMillis(), resolved))
      )
  }
}

/**
 * Makes a quota service with its own counters.
 *
 * @since 0.1.0
 */
export const make = (settings?: Settings): Effect.Effect<Service> => Effect.sync(() => unsafeMake(settings))

/**
 * A layer of one quota service; every client built with it shares its counters.
 *
 * @since 0.1.0
 */
export const layer = (settings?: Settings): Layer.Layer<CreationQuota> => Layer.effect(CreationQuota, make(settings))

/**
 * The process-wide service with the default settings: the value of {@link CreationQuota} when no
 * layer provides it (one instance per process, even if two copies of this package are loaded).
 *
 * @since 0.1.0
 */
export const global: Service = GlobalValue.globalValue(
  Symbol.for("@community-api/client/CreationQuota/global"),
  () => unsafeMake()
)
