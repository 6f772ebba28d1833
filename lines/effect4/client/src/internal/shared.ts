/**
 * What the Redis stores (the permits and the counts) share: the Redis store loaded on demand
 * (`redis.ts` and `ioredis` are imported only here, dynamically), and the fallback to the memory
 * store when Redis is unavailable and the options ask for it, with one warning per process. The
 * decisions are the core's (`StoreFallback`, `FallbackStores`); this file carries them out.
 */
import * as FallbackStores from "@community-api/core/FallbackStores"
import type * as RedisStoreOptions from "@community-api/core/RedisStoreOptions"
import * as StoreFallback from "@community-api/core/StoreFallback"
import { Clock, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CountStore from "../CountStore.js"
import type * as PermitStore from "../PermitStore.js"
import type { Connection, Run } from "./redis/connection.js"

type RedisModule = typeof import("./redis.js")
type Limiter = ClientError.LimiterUnavailable["limiter"]

/** What a limiter does when Redis is unavailable. */
export type OnUnavailable = StoreFallback.OnUnavailable

/** A store's options, resolved. */
export interface Resolved extends RedisStoreOptions.Connection {
  readonly url: Redacted.Redacted<string>
}

const warnedKey = Symbol.for("@community-api/effect4-client/RedisStore/warned")
const warned: StoreFallback.Warned =
  ((globalThis as Record<symbol, StoreFallback.Warned | undefined>)[warnedKey] ??= { done: false })

/** Logs, once per process, that the limiters fell back to this process's memory. */
const warnOnce = (error: ClientError.LimiterUnavailable): Effect.Effect<void> =>
  Effect.suspend(() => {
    const warning = StoreFallback.warning(warned, error)
    return warning === undefined ? Effect.void : Effect.logWarning(warning)
  })

/** How the core's `FallbackStores` falls back to memory, with this line's effects. */
const effects: FallbackStores.Effects<Run> = {
  orMemory: (shared, memory) => Effect.catch(shared, (error) => Effect.andThen(warnOnce(error), memory)),
  both: (shared, memory) => Effect.andThen(Effect.catch(shared, warnOnce), memory),
  suspend: (make) => Effect.flatMap(Clock.currentTimeMillis, make),
  map: (effect, f) => Effect.map(effect, f),
  succeed: Effect.succeed
}

/** A store of Redis (or of memory, when Redis cannot be loaded and the options allow it). */
export const build = <S>(
  limiter: Limiter,
  resolved: Resolved,
  make: (redis: RedisModule, connection: Connection) => Effect.Effect<S, never, Scope.Scope>,
  memory: () => S,
  fallback: (primary: S, memory: S) => S
): Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.matchEffect(
    Effect.tryPromise({
      try: () => import("./redis.js"),
      catch: (error) =>
        new ClientError.LimiterUnavailable(
          StoreFallback.moduleUnavailable(limiter, Redacted.value(resolved.url), error)
        )
    }),
    {
      // Without the module, the memory store (after the one warning) unless the options ask to fail.
      onFailure: (unavailable) =>
        StoreFallback.build(false, resolved.onUnavailable) === "fail"
          ? Effect.fail(unavailable)
          : Effect.map(warnOnce(unavailable), memory),
      onSuccess: (redis) =>
        Effect.flatMap(redis.connect(resolved), (connection) => make(redis, connection)).pipe(
          Effect.map((primary) =>
            StoreFallback.build(true, resolved.onUnavailable) === "fallback" ? fallback(primary, memory()) : primary
          )
        )
    }
  )

/** Permits of Redis, or of memory while Redis is unavailable (the core's `FallbackStores.permits`). */
export const permitsOrMemory = (primary: PermitStore.Service, memory: PermitStore.Service): PermitStore.Service =>
  FallbackStores.permits(effects, primary, memory)

/** Counts of Redis, or of memory while Redis is unavailable (the core's `FallbackStores.counts`). */
export const countsOrMemory = (primary: CountStore.Service, memory: CountStore.Service): CountStore.Service =>
  FallbackStores.counts(effects, primary, memory)
