/**
 * What the Redis stores (the permits and the counts) share: the Redis store loaded on demand
 * (`redis.ts` and `ioredis` are imported only here, dynamically), and the fallback to the memory
 * store when Redis is unavailable and the options ask for it, with one warning per process. The
 * decisions are the core's (`StoreFallback`, `FallbackStores`); this file carries them out.
 */
import * as FallbackStores from "@community-api/core/FallbackStores"
import type * as RedisCounts from "@community-api/core/RedisCounts"
import type * as RedisStores from "@community-api/core/RedisStores"
import * as StoreFallback from "@community-api/core/StoreFallback"
import { Clock, Effect, Redacted } from "effect"
import type { Scope } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CountStore from "../CountStore.js"
import type * as PermitStore from "../PermitStore.js"
import * as OptionChecks from "./options.js"
import type { Connection, Run } from "./redis/connection.js"

type RedisModule = typeof import("./redis.js")
type Secret = Redacted.Redacted<string>

/** What a limiter does when Redis is unavailable. */
export type OnUnavailable = StoreFallback.OnUnavailable

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

/** This line's effects of a store being built: failing with `LimiterUnavailable`, in the store's scope. */
export interface Building extends RedisCounts.TypeLambda {
  readonly type: Effect.Effect<this["A"], ClientError.LimiterUnavailable, Scope.Scope>
}

/** How the core's `RedisStores.store` builds a store with this line's effects (`redis.ts` imported only then). */
export const line: RedisStores.Line<Building, RedisModule, Connection, ClientError.LimiterUnavailable, Secret> = {
  reading: OptionChecks.reading,
  refused: (refusal) => Effect.die(new ClientError.InvalidConfig(refusal)),
  secret: Redacted.make,
  load: (why) =>
    Effect.tryPromise({
      try: () => import("./redis.js"),
      catch: (error) => new ClientError.LimiterUnavailable(why(error))
    }),
  connect: (redis, options) => redis.connect(options),
  suspend: Effect.suspend,
  matchEffect: (effect, onFailure, onSuccess) => Effect.matchEffect(effect, { onFailure, onSuccess }),
  flatMap: (effect, f) => Effect.flatMap(effect, f),
  map: (effect, f) => Effect.map(effect, f),
  fail: Effect.fail,
  warnOnce
}

/** Permits of Redis, or of memory while Redis is unavailable (the core's `FallbackStores.permits`). */
export const permitsOrMemory = (primary: PermitStore.Service, memory: PermitStore.Service): PermitStore.Service =>
  FallbackStores.permits(effects, primary, memory)

/** Counts of Redis, or of memory while Redis is unavailable (the core's `FallbackStores.counts`). */
export const countsOrMemory = (primary: CountStore.Service, memory: CountStore.Service): CountStore.Service =>
  FallbackStores.counts(effects, primary, memory)
