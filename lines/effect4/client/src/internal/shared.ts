/**
 * What the Redis stores (the permits and the counts) share: the Redis store loaded on demand
 * (`redis.ts` and `ioredis` are imported only here, dynamically), and the fallback to the memory
 * store when Redis is unavailable and the options ask for it, with one warning per process.
 */
import * as FallbackCreations from "@community-api/core/FallbackCreations"
import type { Lane } from "@community-api/core/Lane"
import { describeUrl } from "@community-api/core/RedisUrl"
import { Clock, Effect, Redacted, Result } from "effect"
import type { Scope } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CountStore from "../CountStore.js"
import type * as PermitStore from "../PermitStore.js"

type RedisModule = typeof import("./redis.js")
type Limiter = ClientError.LimiterUnavailable["limiter"]

/** What a limiter does when Redis is unavailable. */
export type OnUnavailable = "fail" | "fallback"

/** A store's options, resolved. */
export interface Resolved {
  readonly url: Redacted.Redacted<string>
  readonly prefix: string
  readonly timeoutMillis: number
  readonly onUnavailable: OnUnavailable
}

const warnedKey = Symbol.for("@community-api/effect4-client/RedisStore/warned")
const warned: { done: boolean } = ((globalThis as Record<symbol, { done: boolean } | undefined>)[warnedKey] ??= {
  done: false
})

const warnOnce = (error: ClientError.LimiterUnavailable): Effect.Effect<void> =>
  Effect.suspend(() => {
    if (warned.done) return Effect.void
    warned.done = true
    return Effect.logWarning(
      `the Redis store of the shared limiters is unavailable (${error.store}: ${error.reason}); this process ` +
        "falls back to its own limiters, which do not count the user's other processes (logged once per process)"
    )
  })

const load = (limiter: Limiter, url: string): Effect.Effect<RedisModule, ClientError.LimiterUnavailable> =>
  Effect.tryPromise({
    try: () => import("./redis.js"),
    catch: (error) =>
      new ClientError.LimiterUnavailable({
        limiter,
        store: describeUrl(url),
        reason: `the Redis store needs the package ioredis (npm install ioredis@^5): ${
          error instanceof Error ? error.message : String(error)
        }`
      })
  })

/** A store of Redis (or of memory, when Redis cannot be loaded and the options allow it). */
export const build = <S>(
  limiter: Limiter,
  resolved: Resolved,
  make: (redis: RedisModule, resolved: Resolved) => Effect.Effect<S, never, Scope.Scope>,
  memory: () => S,
  fallback: (primary: S, memory: S) => S
): Effect.Effect<S, ClientError.LimiterUnavailable, Scope.Scope> =>
  Effect.gen(function*() {
    const loaded = yield* Effect.result(load(limiter, Redacted.value(resolved.url)))
    if (Result.isFailure(loaded)) {
      if (resolved.onUnavailable === "fail") return yield* Effect.fail(loaded.failure)
      yield* warnOnce(loaded.failure)
      return memory()
    }
    const primary = yield* make(loaded.success, resolved)
    return resolved.onUnavailable === "fallback" ? fallback(primary, memory()) : primary
  })

interface FallbackPermit extends PermitStore.Permit {
  readonly inner: PermitStore.Permit
  readonly from: PermitStore.Service
}

/** Permits of Redis, or of memory while Redis is unavailable. */
export const permitsOrMemory = (
  primary: PermitStore.Service,
  memory: PermitStore.Service
): PermitStore.Service => {
  const from = (store: PermitStore.Service, user: string, lane: Lane | undefined) =>
    Effect.map(store.take(user, lane), (inner): FallbackPermit => ({ user, inner, from: store }))
  return {
    limit: primary.limit,
    take: (user, lane) =>
      Effect.catch(from(primary, user, lane), (error) => Effect.andThen(warnOnce(error), from(memory, user, lane))),
    budget: (user) =>
      Effect.catch(primary.budget(user), (error) => Effect.andThen(warnOnce(error), memory.budget(user))),
    release: (permit, hold) => {
      const { from, inner } = permit as FallbackPermit
      return from.release(inner, hold)
    },
    block: (user, millis) =>
      Effect.andThen(Effect.catch(primary.block(user, millis), warnOnce), memory.block(user, millis))
  }
}

/** Counts of Redis, or of memory while Redis is unavailable. */
export const countsOrMemory = (primary: CountStore.Service, memory: CountStore.Service): CountStore.Service => {
  // What was counted here rather than in the shared store: given back or counted again here.
  const inMemory = FallbackCreations.make()
  const remember = (user: string) => (verdict: CountStore.Verdict) =>
    Effect.sync(() => {
      if (verdict._tag === "Taken") inMemory.remember(user, verdict.at)
    })
  const forget = (user: string, taken: number): boolean => inMemory.forget(user, taken)
  const takeInMemory = (user: string) => Effect.tap(memory.take(user), remember(user))
  return {
    take: (user) => Effect.catch(primary.take(user), (error) => Effect.andThen(warnOnce(error), takeInMemory(user))),
    retake: (user, taken) =>
      Effect.suspend(() =>
        forget(user, taken)
          ? Effect.tap(memory.retake(user, taken), remember(user))
          : Effect.catch(primary.retake(user, taken), (error) =>
            Effect.andThen(
              warnOnce(error),
              // Counted in Redis: still good within its minute, else counted again here.
              Effect.flatMap(
                Clock.currentTimeMillis,
                (now): Effect.Effect<CountStore.Verdict, ClientError.LimiterUnavailable> =>
                  FallbackCreations.stillCounted(taken, now)
                    ? Effect.succeed({ _tag: "Taken", at: taken })
                    : takeInMemory(user)
              )
            ))
      ),
    refund: (user, taken) =>
      Effect.suspend(() =>
        forget(user, taken) ? memory.refund(user, taken) : Effect.catch(primary.refund(user, taken), warnOnce)
      ),
    exhaust: (user, window) =>
      Effect.andThen(Effect.catch(primary.exhaust(user, window), warnOnce), memory.exhaust(user, window)),
    usedUp: (user) =>
      Effect.catch(primary.usedUp(user), (error) => Effect.andThen(warnOnce(error), memory.usedUp(user))),
    budget: (user) =>
      Effect.catch(primary.budget(user), (error) => Effect.andThen(warnOnce(error), memory.budget(user)))
  }
}
