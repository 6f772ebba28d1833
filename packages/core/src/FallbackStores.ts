/**
 * The stores of the limiters with this process's memory behind the shared one (Redis), as both Effect
 * lines compose them when the options ask to fall back ({@link StoreFallback}): which store each
 * operation goes to, decided here once. A permit goes back to the store it came from, and a block
 * goes to both; a creation counted in memory is remembered ({@link FallbackCreations}), so that it is
 * given back or counted again there and not in Redis. A line gives its effects ({@link Effects}: how
 * it falls back to memory with the one warning, and how it sequences its effects) and its two stores.
 *
 * @since 0.1.0
 */
import type * as Budget from "./Budget.js"
import * as FallbackCreations from "./FallbackCreations.js"
import type { Lane } from "./Lane.js"
import type * as PermitStore from "./PermitStore.js"
import type { Kind, Store as Counts, TypeLambda } from "./RedisCounts.js"
import type * as RedisScripts from "./RedisScripts.js"

/**
 * What the composition needs of a line's effects, each of type `Kind<F, A>` for a result `A` (failing
 * with the shared store's error).
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda> {
  /** `shared`, or `memory` (after the one warning) when `shared` fails as unavailable. */
  readonly orMemory: <A>(shared: Kind<F, A>, memory: Kind<F, A>) => Kind<F, A>
  /** `shared` (its failure warned and passed over), then `memory`. */
  readonly both: (shared: Kind<F, void>, memory: Kind<F, void>) => Kind<F, void>
  /** The effect that `make` returns when run, given the time then (the line's clock). */
  readonly suspend: <A>(make: (now: number) => Kind<F, A>) => Kind<F, A>
  /** `effect`'s result through `f`. */
  readonly map: <A, B>(effect: Kind<F, A>, f: (a: A) => B) => Kind<F, B>
  /** `value`, at once. */
  readonly succeed: <A>(value: A) => Kind<F, A>
}

/**
 * A store of pacing permits over a line's effects `F`, whose `release` is of type `R`.
 *
 * @since 0.1.0
 * @category models
 */
export type Permits<F extends TypeLambda, R> = PermitStore.Store<
  Kind<F, PermitStore.Permit>,
  R,
  Kind<F, Budget.Requests>,
  Kind<F, void>
>

interface FallbackPermit<R> extends PermitStore.Permit {
  readonly inner: PermitStore.Permit
  readonly from: Pick<Permits<TypeLambda, R>, "release">
}

/**
 * Permits from `primary`, or from `memory` while `primary` is unavailable. A permit goes back to the
 * store it came from; a block goes to both.
 *
 * @since 0.1.0
 * @category constructors
 */
export const permits = <F extends TypeLambda, R>(
  effects: Effects<F>,
  primary: Permits<F, R>,
  memory: Permits<F, R>
): Permits<F, R> => {
  const from = (store: Permits<F, R>, user: string, lane: Lane | undefined) =>
    effects.map(store.take(user, lane), (inner): FallbackPermit<R> => ({ user, inner, from: store }))
  return {
    limit: primary.limit,
    take: (user, lane) => effects.orMemory(from(primary, user, lane), from(memory, user, lane)),
    budget: (user) => effects.orMemory(primary.budget(user), memory.budget(user)),
    release: (permit, hold) => {
      const { from, inner } = permit as FallbackPermit<R>
      return from.release(inner, hold)
    },
    block: (user, millis) => effects.both(primary.block(user, millis), memory.block(user, millis))
  }
}

/**
 * Counts in `primary`, or in `memory` while `primary` is unavailable. A creation counted in memory is
 * remembered (for a day at most), so that it is given back or counted again there and not in Redis.
 *
 * @since 0.1.0
 * @category constructors
 */
export const counts = <F extends TypeLambda>(effects: Effects<F>, primary: Counts<F>, memory: Counts<F>): Counts<F> => {
  // What was counted here rather than in the shared store: given back or counted again here.
  const inMemory = FallbackCreations.make()
  const counted = (user: string, verdict: Kind<F, RedisScripts.Verdict>) =>
    effects.map(verdict, (verdict) => {
      inMemory.record(user, verdict)
      return verdict
    })
  const { both, orMemory, suspend } = effects
  return {
    take: (user) => orMemory(primary.take(user), counted(user, memory.take(user))),
    retake: (user, taken) =>
      suspend(() =>
        inMemory.forget(user, taken)
          ? counted(user, memory.retake(user, taken))
          : orMemory(
            primary.retake(user, taken),
            // Counted in Redis: still good within its minute, else counted again here.
            suspend((now) => {
              const verdict = FallbackCreations.retakenWhileUnavailable(taken, now)
              return verdict === undefined ? counted(user, memory.take(user)) : effects.succeed(verdict)
            })
          )
      ),
    refund: (user, taken) =>
      suspend(() =>
        inMemory.forget(user, taken)
          ? memory.refund(user, taken)
          : both(primary.refund(user, taken), effects.succeed(undefined))
      ),
    exhaust: (user, window) => both(primary.exhaust(user, window), memory.exhaust(user, window)),
    usedUp: (user) => orMemory(primary.usedUp(user), memory.usedUp(user)),
    budget: (user) => orMemory(primary.budget(user), memory.budget(user))
  }
}
