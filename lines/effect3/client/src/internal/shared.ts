/**
 * What the Redis stores of `RedisStore` (the permits and the counts) share: the Redis store loaded on
 * demand (`redis.ts` and `ioredis` are imported only here, dynamically; `redis/url.ts`, which names
 * the store, loads neither), and the fallback to the memory store when Redis is unavailable and the
 * options ask for it, with one warning per process. The decisions are the core's (`StoreFallback`,
 * `FallbackCreations`); this file carries them out.
 */
import * as FallbackCreations from "@community-api/core/FallbackCreations"
import type { Lane } from "@community-api/core/Lane"
import * as StoreFallback from "@community-api/core/StoreFallback"
import { Clock, Effect, Either, GlobalValue, Redacted } from "effect"
import type { Scope } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CountStore from "../CountStore.js"
import type * as PermitStore from "../PermitStore.js"
import type * as RedisStore from "../RedisStore.js"
import { describeUrl } from "./redis/url.js"

type RedisModule = typeof import("./redis.js")
type Limiter = ClientError.LimiterUnavailable["limiter"]

/** The options of `RedisStore` with their defaults filled in. @internal */
export interface Resolved {
  readonly url: Redacted.Redacted<string>
  readonly prefix: string
  readonly timeoutMillis: number
  readonly onUnavailable: RedisStore.OnUnavailable
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

/** `shared`, or `memory` (after the warning) while the shared store is unavailable. */
const orMemory = <A, E>(
  shared: Effect.Effect<A, ClientError.LimiterUnavailable>,
  memory: Effect.Effect<A, E>
): Effect.Effect<A, E> => Effect.catchAll(shared, (error) => Effect.zipRight(warnOnce(error), memory))

/** `shared` (its failure warned and passed over), then `memory`: what both stores must know. */
const both = <E>(shared: Effect.Effect<void, ClientError.LimiterUnavailable>, memory: Effect.Effect<void, E>) =>
  Effect.zipRight(Effect.catchAll(shared, warnOnce), memory)

/**
 * Builds the Redis store of a limiter for the scope, or the memory one (see {@link Resolved}).
 *
 * @internal
 */
export const build = <S>(
  limiter: Limiter,
  resolved: Resolved,
  make: (redis: RedisModule, resolved: Resolved) => Effect.Effect<S, never, Scope.Scope>,
  memory: () => S,
  fallback: (primary: S, memory: S) => S
): Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const loaded = yield* Effect.either(Effect.tryPromise({
      try: () => import("./redis.js"),
      catch: (error) =>
        new ClientError.LimiterUnavailable({
          limiter,
          store: describeUrl(Redacted.value(resolved.url)),
          reason: StoreFallback.moduleMissing(error)
        })
    }))
    const plan = StoreFallback.build(Either.isRight(loaded), resolved.onUnavailable)
    if (Either.isLeft(loaded)) {
      if (plan === "fail") return yield* Effect.fail(loaded.left)
      yield* warnOnce(loaded.left)
      return memory()
    }
    const primary = yield* make(loaded.right, resolved)
    return plan === "fallback" ? fallback(primary, memory()) : primary
  })

interface FallbackPermit extends PermitStore.Permit {
  readonly inner: PermitStore.Permit
  readonly from: PermitStore.Service
}

/**
 * Permits from `primary`, or from `memory` while `primary` is unavailable. A permit goes back to the
 * store it came from; a block goes to both.
 *
 * @internal
 */
export const permitsOrMemory = (
  primary: PermitStore.Service,
  memory: PermitStore.Service
): PermitStore.Service => {
  const from = (store: PermitStore.Service, user: string, lane: Lane | undefined) =>
    Effect.map(store.take(user, lane), (inner): FallbackPermit => ({ user, inner, from: store }))
  return {
    limit: primary.limit,
    take: (user, lane) => orMemory(from(primary, user, lane), from(memory, user, lane)),
    budget: (user) => orMemory(primary.budget(user), memory.budget(user)),
    release: (permit, hold) => {
      const { from, inner } = permit as FallbackPermit
      return from.release(inner, hold)
    },
    block: (user, millis) => both(primary.block(user, millis), memory.block(user, millis))
  }
}

/**
 * Counts in `primary`, or in `memory` while `primary` is unavailable. A creation counted in memory is
 * remembered (for a day at most), so that it is given back or counted again there and not in Redis.
 *
 * @internal
 */
export const countsOrMemory = (primary: CountStore.Service, memory: CountStore.Service): CountStore.Service => {
  // What was counted here rather than in the shared store: given back or counted again here.
  const inMemory = FallbackCreations.make()
  const record = (user: string) => (verdict: CountStore.Verdict) => Effect.sync(() => inMemory.record(user, verdict))
  const takeInMemory = (user: string) => Effect.tap(memory.take(user), record(user))
  return {
    take: (user) => orMemory(primary.take(user), takeInMemory(user)),
    retake: (user, taken) =>
      Effect.suspend(() =>
        inMemory.forget(user, taken)
          ? Effect.tap(memory.retake(user, taken), record(user))
          : orMemory(
            primary.retake(user, taken),
            // Counted in Redis: still good within its minute, else counted again here.
            Effect.flatMap(Clock.currentTimeMillis, (now) => {
              const verdict = FallbackCreations.retakenWhileUnavailable(taken, now)
              return verdict === undefined ? takeInMemory(user) : Effect.succeed(verdict)
            })
          )
      ),
    refund: (user, taken) =>
      Effect.suspend(() =>
        inMemory.forget(user, taken)
          ? memory.refund(user, taken)
          : Effect.catchAll(primary.refund(user, taken), warnOnce)
      ),
    exhaust: (user, window) => both(primary.exhaust(user, window), memory.exhaust(user, window)),
    usedUp: (user) => orMemory(primary.usedUp(user), memory.usedUp(user)),
    budget: (user) => orMemory(primary.budget(user), memory.budget(user))
  }
}
