/**
 * What the Redis stores of `RedisStore` (the permits and the counts) share: the Redis store loaded on
 * demand (`redis.ts` and `ioredis` are imported only here, dynamically; the store is named by the
 * core, which loads neither), and the fallback to the memory store when Redis is unavailable and the
 * options ask for it, with one warning per process. The decisions are the core's (`StoreFallback`,
 * `FallbackStores`); this file carries them out.
 */
import * as FallbackStores from "@community-api/core/FallbackStores"
import type * as RedisStoreOptions from "@community-api/core/RedisStoreOptions"
import * as StoreFallback from "@community-api/core/StoreFallback"
import { Clock, Effect, GlobalValue, Redacted } from "effect"
import type { Scope } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CountStore from "../CountStore.js"
import type * as PermitStore from "../PermitStore.js"
import type { Connection, Run } from "./redis/connection.js"

type RedisModule = typeof import("./redis.js")
type Limiter = ClientError.LimiterUnavailable["limiter"]

/** The options of `RedisStore` with their defaults filled in. @internal */
export interface Resolved extends RedisStoreOptions.Connection {
  readonly url: Redacted.Redacted<string>
}

const warned = GlobalValue.globalValue(
  Symbol.for("@community-api/client/RedisStore/warned"),
  (): StoreFallback.Warned => ({ done: false })
)

/** Logs, once per process, that the limiters fell back to this process's memory. */
const warnOnce = (error: ClientError.LimiterUnavailable): Effect.Effect<void> =>
  Effect.suspend(() => {
    const warning = StoreFallback.warning(warned, error)
    return warning === undefined ? Effect.void : Effect.logWarning(warning)
  })

/** How the core's `FallbackStores` falls back to memory, with this line's effects. */
const effects: FallbackStores.Effects<Run> = {
  orMemory: (shared, memory) => Effect.catchAll(shared, (error) => Effect.zipRight(warnOnce(error), memory)),
  both: (shared, memory) => Effect.zipRight(Effect.catchAll(shared, warnOnce), memory),
  suspend: (make) => Effect.flatMap(Clock.currentTimeMillis, make),
  map: (effect, f) => Effect.map(effect, f),
  succeed: Effect.succeed
}

/**
 * Builds the Redis store of a limiter for the scope, or the memory one (see {@link Resolved}).
 *
 * @internal
 */
export const build = <S>(
  limiter: Limiter,
  resolved: Resolved,
  make: (redis: RedisModule, connection: Connection) => Effect.Effect<S, never, Scope.Scope>,
  memory: () => S,
  fallback: (primary: S, memory: S) => S
): Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.tryPromise({
    try: () => import("./redis.js"),
    catch: (error) =>
      new ClientError.LimiterUnavailable(StoreFallback.moduleUnavailable(limiter, Redacted.value(resolved.url), error))
  }).pipe(Effect.matchEffect({
    // Without the module, the memory store (after the one warning) unless the options ask to fail.
    onFailure: (unavailable) =>
      StoreFallback.build(false, resolved.onUnavailable) === "fail"
        ? Effect.fail(unavailable)
        : Effect.map(warnOnce(unavailable), memory),
    onSuccess: (redis) =>
      Effect.map(
        Effect.flatMap(redis.connect(resolved), (connection) => make(redis, connection)),
        (primary) =>
          StoreFallback.build(true, resolved.onUnavailable) === "fallback" ? fallback(primary, memory()) : primary
      )
  }))

/**
 * Permits from `primary`, or from `memory` while `primary` is unavailable (the core's
 * `FallbackStores.permits`).
 *
 * @internal
 */
export const permitsOrMemory = (primary: PermitStore.Service, memory: PermitStore.Service): PermitStore.Service =>
  FallbackStores.permits(effects, primary, memory)

/**
 * Counts in `primary`, or in `memory` while `primary` is unavailable (the core's
 * `FallbackStores.counts`).
 *
 * @internal
 */
export const countsOrMemory = (primary: CountStore.Service, memory: CountStore.Service): CountStore.Service =>
  FallbackStores.counts(effects, primary, memory)
