/**
 * Request pacing under the rate limit (L1): at most 30 requests in any 1000 ms per user, all of the
 * user's tokens together. Not a token bucket (refilled to full after idle time, a bucket lets about
 * twice the limit through in one second) but 30 permits per user, each held from before a request is
 * sent until a window plus a margin after its answer came back: the server counts a request before it
 * answers, so it never sees more than 30 of one user in any window, however slow it or the network is.
 *
 * One `Pacing` service holds one gate per user key and is shared by every client that gets it from
 * the same layer. **Without a layer, clients use the process-wide {@link global}**: {@link Pacing} is
 * a `Context.Reference` whose default is that instance, so a client never runs unpaced and every
 * client of one user in the process shares one limit. Provide {@link layer} to choose the settings or
 * to keep a test's counts apart from the rest of the process. The limiter stays behind this module so
 * that a store shared across processes can replace it later.
 *
 * @since 0.1.0
 */
import { Limits } from "@community-api/schema"
import { Context, Duration, Effect, GlobalValue, Layer } from "effect"
import * as Permits from "./internal/permits.js"

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
  /** Extra time a permit is held past the window, against clock granularity; default 20 ms. */
  readonly margin?: Duration.DurationInput | undefined
}

/**
 * The defaults: the API's limit (L1, 30 per 1000 ms, from `Limits`) and a 20 ms margin.
 *
 * @since 0.1.0
 */
export const defaults = {
  limit: Limits.requestsPerWindow,
  window: Duration.millis(Limits.rateWindowMillis),
  margin: Duration.millis(20)
} as const

/**
 * The pacing service.
 *
 * @since 0.1.0
 */
export interface Service {
  /**
   * Runs `send` (one request of `user`) when it fits the limit; its permit comes back a window plus
   * the margin after `send` ends.
   */
  readonly withPermit: (user: string) => <A, E, R>(send: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** The server answered 5: hold back every further request of `user` for a whole window. */
  readonly penalize: (user: string) => Effect.Effect<void>
  /** The resolved settings. */
  readonly settings: Permits.Settings
}

/**
 * The pacing service. A `Context.Reference`: when no layer provides it, it is the process-wide
 * {@link global}, so that clients are paced even when nobody asked for it and all clients of one
 * user in the process share one limit. Provide {@link layer} once per process (or per test) to choose
 * the settings or to start from empty logs.
 *
 * @since 0.1.0
 */
export class Pacing extends Context.Reference<Pacing>()("@community-api/client/Pacing", {
  defaultValue: (): Service => global
}) {}

const resolve = (settings: Settings = {}): Permits.Settings => ({
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
  const gates = new Map<string, Permits.Gate>()
  const gateOf = (user: string) => {
    let gate = gates.get(user)
    if (gate === undefined) {
      gate = Permits.unsafeMake(resolved)
      gates.set(user, gate)
    }
    return gate
  }
  return {
    settings: resolved,
    withPermit: (user) => (send) => Effect.suspend(() => gateOf(user).withPermit(send)),
    penalize: (user) => Effect.suspend(() => Permits.penalizeNow(gateOf(user)))
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
 * The process-wide service with the default settings: the value of {@link Pacing} when no layer
 * provides it, so that two clients of one user in one process never exceed the limit together (one
 * instance per process, even if two copies of this package are loaded).
 *
 * @since 0.1.0
 */
export const global: Service = GlobalValue.globalValue(
  Symbol.for("@community-api/client/Pacing/global"),
  () => unsafeMake()
)
