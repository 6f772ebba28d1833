/**
 * The creation quota (L2–L5): 20 creations per calendar minute and 200 per day (the day starts at
 * 03:00 Moscow time, 00:00 UTC) per user, shared by `lists/create`, `vars/create` and
 * `globalVars/create` (every operation the contract flags as a creation).
 *
 * When the minute is used up a creation waits for the next minute or fails at once with
 * {@link ClientError.CreationQuotaExceeded} (the client's `onCreationLimit` setting); a used-up day
 * always fails at once, saying when it resets. Like {@link Pacing}, one service is shared by every
 * client that gets it from the same layer, or from the process-wide {@link global}.
 *
 * @since 0.1.0
 */
import { Context, DateTime, Duration, Effect, GlobalValue, Layer } from "effect"
import * as ClientError from "./ClientError.js"
import * as QuotaWindows from "./internal/quotaWindows.js"

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
 * The defaults of L2.
 *
 * @since 0.1.0
 */
export const defaults = { perMinute: 20, perDay: 200 } as const

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
  /** The server answered 5 to a creation: no more creations of `user` in this minute. */
  readonly exhaustMinute: (user: string) => Effect.Effect<void>
}

/**
 * The quota service tag.
 *
 * @since 0.1.0
 */
export class CreationQuota extends Context.Tag("@community-api/client/CreationQuota")<CreationQuota, Service>() {}

/**
 * Makes a quota service with its own counters, synchronously (for {@link global}).
 *
 * @since 0.1.0
 */
export const unsafeMake = (settings: Settings = {}): Service => {
  const resolved = { perMinute: settings.perMinute ?? defaults.perMinute, perDay: settings.perDay ?? defaults.perDay }
  const counters = new Map<string, QuotaWindows.Counter>()
  const counterOf = (user: string) => {
    let counter = counters.get(user)
    if (counter === undefined) {
      counter = QuotaWindows.make(resolved)
      counters.set(user, counter)
    }
    return counter
  }
  const exceeded = (operation: string, verdict: QuotaWindows.Exhausted) =>
    new ClientError.CreationQuotaExceeded({
      operation,
      window: verdict.window,
      resetsAt: DateTime.unsafeMake(verdict.resetsAt)
    })
  const acquire = (
    user: string,
    operation: string,
    onExhausted: OnExhausted
  ): Effect.Effect<number, ClientError.CreationQuotaExceeded> =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      const verdict = counterOf(user).take(now)
      if (verdict._tag === "Granted") return Effect.succeed(now)
      if (verdict.window === "minute" && onExhausted === "wait") {
        return Effect.zipRight(
          Effect.sleep(Duration.millis(verdict.resetsAt - now)),
          acquire(user, operation, onExhausted)
        )
      }
      return Effect.fail(exceeded(operation, verdict))
    })
  const confirm = (
    user: string,
    operation: string,
    taken: number
  ): Effect.Effect<number, ClientError.CreationQuotaExceeded> =>
    Effect.clockWith((clock) => {
      const now = clock.unsafeCurrentTimeMillis()
      // A day begins with a minute, so one test covers both windows.
      if (QuotaWindows.nextMinute(taken) > now) return Effect.succeed(taken)
      const counter = counterOf(user)
      counter.refund(taken, now) // still counted in today's window when the day did not change
      const verdict = counter.take(now)
      return verdict._tag === "Granted" ? Effect.succeed(now) : Effect.fail(exceeded(operation, verdict))
    })
  return {
    acquire,
    confirm,
    refund: (user, taken) =>
      Effect.clockWith((clock) => Effect.sync(() => counterOf(user).refund(taken, clock.unsafeCurrentTimeMillis()))),
    exhaustMinute: (user) =>
      Effect.clockWith((clock) => Effect.sync(() => counterOf(user).exhaustMinute(clock.unsafeCurrentTimeMillis())))
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
 * The process-wide service with the default settings, used when no {@link CreationQuota} is provided.
 *
 * @since 0.1.0
 */
export const global: Service = GlobalValue.globalValue(
  Symbol.for("@community-api/client/CreationQuota/global"),
  () => unsafeMake()
)
