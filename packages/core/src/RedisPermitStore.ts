/**
 * The Redis store of the pacing permits as either Effect line serves it, "sans I/O": each operation of
 * the `PermitStore` (take, release, budget, block) put together from the {@link RedisPermitBook} and
 * the {@link RedisPermitPlan}s over a line's few {@link Effects} (its clock, its calls to Redis, its
 * waiters, fibers and interruption). A line supplies those and carries out the renewal loop
 * ({@link RedisPermitStore.renewing}, for ever in a fiber of the store's scope); it decides nothing.
 *
 * @since 0.1.0
 */
import type * as Budget from "./Budget.js"
import type { Lane } from "./Lane.js"
import type * as PermitStore from "./PermitStore.js"
import type * as RedisCounts from "./RedisCounts.js"
import * as RedisPermitBook from "./RedisPermitBook.js"
import * as RedisPermitPlan from "./RedisPermitPlan.js"
import type * as RedisScripts from "./RedisScripts.js"

/**
 * A line's effect type of a result `A` and an error `E`, as `Kind` reads it: an interface whose `type`
 * is its effect of `this["A"]` and `this["E"]`.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface TypeLambda {
  readonly A: unknown
  readonly E: unknown
  readonly type: unknown
}

/**
 * The effect of `F` of a result `A` that fails with `E` (`never`: it never fails).
 *
 * @since 0.1.0
 * @category type-level
 */
export type Kind<F extends TypeLambda, A, E> = (F & { readonly A: A; readonly E: E })["type"]

/**
 * What the store needs of a line's effects (`F`, see {@link Kind}), for waiters `W` (what a line hands
 * a permit to, or fails) and the store's error `E`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, W, E> {
  /** The time now, in milliseconds (the line's clock). */
  readonly clock: Kind<F, number, never>
  readonly flatMap: <A, X, B, Y>(self: Kind<F, A, X>, f: (a: A) => Kind<F, B, Y>) => Kind<F, B, X | Y>
  readonly map: <A, X, B>(self: Kind<F, A, X>, f: (a: A) => B) => Kind<F, B, X>
  /** What `self` ends with, failed or not: it never fails. */
  readonly match: <A, X, B>(
    self: Kind<F, A, X>,
    onFailure: (error: X) => B,
    onSuccess: (a: A) => B
  ) => Kind<F, B, never>
  readonly void: Kind<F, void, never>
  /** Sleeps `millis` (interruptibly). */
  readonly sleep: (millis: number) => Kind<F, void, never>
  /** Runs `call` (for the pacing); fails with the store's error when Redis is not there or slow. */
  readonly run: (call: RedisScripts.Call) => Kind<F, RedisScripts.Reply, E>
  /** A new waiter, not yet handed anything. */
  readonly waiter: () => W
  /** Hands `grant` to `waiter`. */
  readonly wake: (waiter: W, grant: RedisPermitPlan.Grant<W>) => Kind<F, unknown, never>
  /** Fails `waiter` with `error`, at once. */
  readonly fail: (waiter: W, error: E) => void
  /** Waits until `waiter` is handed a permit, or fails with what it was failed with. */
  readonly await: (waiter: W) => Kind<F, RedisPermitPlan.Grant<W>, E>
  /** `self`, and when it is interrupted, the effect that `cleanup` makes. */
  readonly guard: <A, X>(self: Kind<F, A, X>, cleanup: () => Kind<F, void, never>) => Kind<F, A, X>
  /** `body` run uninterruptibly, but for what it runs through `restore`. */
  readonly mask: <A, X>(
    body: (restore: <B, Y>(self: Kind<F, B, Y>) => Kind<F, B, Y>) => Kind<F, A, X>
  ) => Kind<F, A, X>
  /** Runs `self` in a fiber of the store's scope, interruptible by it, and goes on at once. */
  readonly spawn: (self: Kind<F, void, never>) => Kind<F, unknown, never>
  /** Runs `self` in a fiber of the store's scope, and goes on at once. */
  readonly fork: (self: Kind<F, void, never>) => Kind<F, void, never>
}

/**
 * A store of pacing permits over a line's effects (see `PermitStore.Store`).
 *
 * @since 0.1.0
 * @category models
 */
export type Store<F extends TypeLambda, E> = PermitStore.Store<
  Kind<F, PermitStore.Permit, E>,
  Kind<F, void, never>,
  Kind<F, Budget.Requests, E>,
  Kind<F, void, E>
>

/**
 * The store, and its renewal loop, which the line runs in the store's scope.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedisPermitStore<F extends TypeLambda, E> {
  readonly store: Store<F, E>
  /** For ever: a sleep of a third of the lease, then one renewal turn (`RedisPermitPlan.renew`). */
  readonly renewing: Kind<F, never, never>
}

/** What carries a plan out: `F`'s effects that never fail, as `RedisPermitPlan.carry` reads them. */
interface Carried<F extends TypeLambda> extends RedisCounts.TypeLambda {
  readonly type: Kind<F, this["A"], never>
}

const ignore = (): void => undefined

/**
 * The permit store for `limit` permits per user under `prefix`, leased for `leaseMillis`, with `kept`
 * of each window kept for interactive calls; `processId` names this process's permits
 * (`RedisPermitBook.processId`). In this process one loop per user asks Redis, for as many permits
 * as fibers wait for one (which get them in the order they came), and sleeps until Redis says one may
 * be free; one loop renews every permit of this process in flight.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <F extends TypeLambda, W, E>(
  effects: Effects<F, W, E>,
  options: {
    readonly prefix: string
    readonly limit: number
    readonly leaseMillis: number
    readonly kept?: number | undefined
    readonly processId: string
  }
): RedisPermitStore<F, E> => {
  const book = RedisPermitBook.make<W>(options)
  const plans = RedisPermitPlan.make<W, E>(book, options)
  const { flatMap, guard, map, match } = effects
  const now = <A, X>(make: (now: number) => Kind<F, A, X>): Kind<F, A, X> => flatMap(effects.clock, make)
  const andThen = <A, X, B, Y>(self: Kind<F, A, X>, next: Kind<F, B, Y>) => flatMap(self, () => next)
  const query = <A>({ call, read }: RedisCounts.Query<A>) => map(effects.run(call), read)
  /** Carries out a plan from now on, step by step. */
  const perform = RedisPermitPlan.carry<Carried<F>, W, E>({
    suspend: now,
    run: (call, next) => flatMap(match(effects.run(call), RedisPermitPlan.failed, RedisPermitPlan.replied), next),
    sleep: (millis, next) => andThen(effects.sleep(millis), next),
    wake: (waiter, grant, next) => andThen(effects.wake(waiter, grant), next),
    fail: (waiters, error, next) =>
      now(() => {
        for (const waiter of waiters) effects.fail(waiter, error)
        return next
      }),
    wait: (waiter, next) => flatMap(match(effects.await(waiter), () => undefined, (grant) => grant), next),
    done: effects.void
  })
  const renewing: Kind<F, never, never> = andThen(
    andThen(effects.sleep(plans.renewEveryMillis), perform(plans.renew)),
    now(() => renewing)
  )
  return {
    renewing,
    store: {
      limit: options.limit,
      take: (user, lane: Lane = "interactive") =>
        effects.mask((restore) =>
          now((at) => {
            const entry = book.entry(user, at)
            const waiter = effects.waiter()
            const asking = book.enqueue(entry, lane, waiter)
            const granted = guard(restore(effects.await(waiter)), () => perform(plans.withdraw(entry, lane, waiter)))
            const used = flatMap(granted, (grant) =>
              map(
                guard(restore(perform(plans.ready(grant))), () => perform(plans.giveBack(grant.permit))),
                (): PermitStore.Permit => grant.permit
              ))
            // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
            return asking ? andThen(effects.spawn(perform(plans.ask(entry))), used) : used
          })
        ),
      // Given back in a fiber of the store's scope, so that the caller's answer does not wait for Redis.
      release: (permit, hold) => effects.fork(perform(plans.giveBack(permit as RedisPermitPlan.Permit<W>, hold))),
      budget: (user) => query({ call: book.readBudget(user), read: book.budget }),
      block: (user, millis) => now((at) => query({ call: book.block(user, millis, at), read: ignore }))
    }
  }
}
