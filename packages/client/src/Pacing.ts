/**
 * Request pacing under the rate limit (L1): at most 30 requests in any 1000 ms per user, all of the
 * user's tokens together. A sliding log of send times per user, not a token bucket: a bucket refilled
 * to full after idle time lets about twice the limit through in one second.
 *
 * One `Pacing` service holds one log per user key and is shared by every client of the process that
 * gets it from the same layer (or, with no layer, from the process-wide {@link global}). The limiter
 * stays behind this module so that a store shared across processes can replace it later.
 *
 * @since 0.1.0
 */
import { Context, Duration, Effect, GlobalValue, Layer } from "effect"
import * as SlidingLog from "./internal/slidingLog.js"

/**
 * Settings of the limiter.
 *
 * @since 0.1.0
 */
export interface Settings {
  /** Requests allowed in one window; default 30 (L1). */
  readonly limit?: number | undefined
  /** The window; default 1000 ms (L1). */
  readonly window?: Duration.DurationInput | undefined
  /** Extra spacing added to every window against network jitter; default 50 ms. */
  readonly margin?: Duration.DurationInput | undefined
}

/**
 * The defaults: 30 per 1000 ms, 50 ms margin.
 *
 * @since 0.1.0
 */
export const defaults = { limit: 30, window: Duration.seconds(1), margin: Duration.millis(50) } as const

/**
 * The pacing service.
 *
 * @since 0.1.0
 */
export interface Service {
  /** Waits until one more request of `user` fits the limit, and counts it as sent. */
  readonly acquire: (user: string) => Effect.Effect<void>
  /** The server answered 5: hold back every further request of `user` for a whole window. */
  readonly penalize: (user: string) => Effect.Effect<void>
  /** The resolved settings. */
  readonly settings: SlidingLog.Settings
}

/**
 * The pacing service tag. Provide it once per process (or per test) so that all clients share it.
 *
 * @since 0.1.0
 */
export class Pacing extends Context.Tag("@community-api/client/Pacing")<Pacing, Service>() {}

const resolve = (settings: Settings = {}): SlidingLog.Settings => ({
  limit: settings.limit ?? defaults.limit,
  windowMillis: Duration.toMillis(settings.window ?? defaults.window),
  marginMillis: Duration.toMillis(settings.margin ?? defaults.margin)
})

/**
 * Makes a pacing service with its own logs, synchronously (for {@link global}).
 *
 * @since 0.1.0
 */
export const unsafeMake = (settings?: Settings): Service => {
  const resolved = resolve(settings)
  const logs = new Map<string, SlidingLog.SlidingLog>()
  const logOf = (user: string) => {
    let log = logs.get(user)
    if (log === undefined) {
      log = SlidingLog.make(resolved)
      logs.set(user, log)
    }
    return log
  }
  return {
    settings: resolved,
    acquire: (user) =>
      Effect.clockWith((clock) => {
        // Read the clock and reserve in one synchronous step, so no other fiber slips in between.
        const now = clock.unsafeCurrentTimeMillis()
        const at = logOf(user).reserve(now)
        return at > now ? Effect.sleep(Duration.millis(at - now)) : Effect.void
      }),
    penalize: (user) =>
      Effect.clockWith((clock) => Effect.sync(() => logOf(user).penalize(clock.unsafeCurrentTimeMillis())))
  }
}

/**
 * Makes a pacing service with its own logs.
 *
 * @since 0.1.0
 */
export const make = (settings?: Settings): Effect.Effect<Service> => Effect.sync(() => unsafeMake(settings))

/**
 * A layer of one pacing service; every client built with it shares its logs.
 *
 * @since 0.1.0
 */
export const layer = (settings?: Settings): Layer.Layer<Pacing> => Layer.effect(Pacing, make(settings))

/**
 * The process-wide service with the default settings, used by clients when no {@link Pacing} is
 * provided, so that two clients of one user in one process never exceed the limit together (one
 * instance per process, even if two copies of this package are loaded).
 *
 * @since 0.1.0
 */
export const global: Service = GlobalValue.globalValue(
  Symbol.for("@community-api/client/Pacing/global"),
  () => unsafeMake()
)
