/**
 * The pacing permits over Redis: the core's `RedisPermitBook` decides what to ask Redis and what its
 * replies mean, and its `RedisPermitPlan` what to do next (the asking loop of each user, the renewal
 * of the permits in flight, the give-back); this module carries the plans' steps out: it sends the
 * calls, wakes or fails the waiters (Deferreds) and sleeps, in fibers of the store's scope.
 */
import type { Lane } from "@community-api/core/Lane"
import type * as RedisCounts from "@community-api/core/RedisCounts"
import * as RedisPermitBook from "@community-api/core/RedisPermitBook"
import * as RedisPermitPlan from "@community-api/core/RedisPermitPlan"
import { Deferred, Duration, Effect, Option, Random } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "../../ClientError.js"
import type * as PermitStore from "../../PermitStore.js"
import type { Connection } from "./connection.js"

type Error = ClientError.LimiterUnavailable
interface Waiter extends Deferred.Deferred<RedisPermitPlan.Grant<Waiter>, Error> {}
/** The effects that carry a plan out: they never fail (a failed call is an outcome). */
interface Carried extends RedisCounts.TypeLambda {
  readonly type: Effect.Effect<this["A"]>
}

/**
 * The pacing permits in Redis. In this process one fiber per user asks Redis, for as many permits as
 * fibers wait for one (which get them in the order they came), and sleeps until Redis says one may be
 * free; one fiber renews every permit of this process in flight. Both run in `scope`.
 */
export const permitStore = (
  connection: Connection,
  options: { readonly limit: number; readonly leaseMillis: number; readonly kept?: number | undefined }
): Effect.Effect<PermitStore.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const book = RedisPermitBook.make<Waiter>({
      ...options,
      prefix: connection.prefix,
      processId: RedisPermitBook.processId(yield* Random.nextInt)
    })
    const plans = RedisPermitPlan.make<Waiter, Error>(book, options)
    const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
    /** Carries out a plan from now on, step by step (the core's `RedisPermitPlan.carry`). */
    const perform = RedisPermitPlan.carry<Carried, Waiter, Error>({
      suspend: (make) => Effect.flatMap(now, make),
      run: (call, next) =>
        Effect.matchEffect(connection.run("pacing", call), {
          onFailure: (error) => next(RedisPermitPlan.failed(error)),
          onSuccess: (reply) => next(RedisPermitPlan.replied(reply))
        }),
      sleep: (millis, next) => Effect.andThen(Effect.sleep(Duration.millis(millis)), next),
      wake: (waiter, grant, next) => Effect.andThen(Deferred.succeed(waiter, grant), next),
      fail: (waiters, error, next) =>
        Effect.suspend(() => {
          for (const waiter of waiters) Deferred.doneUnsafe(waiter, Effect.fail(error))
          return next
        }),
      wait: (waiter, next) =>
        Effect.flatMap(Effect.option(Deferred.await(waiter)), (grant) => next(Option.getOrUndefined(grant))),
      done: Effect.void
    })

    yield* Effect.forkIn(
      Effect.forever(Effect.andThen(Effect.sleep(Duration.millis(plans.renewEveryMillis)), perform(plans.renew))),
      scope
    )

    return {
      limit: options.limit,
      take: (user, lane: Lane = "interactive") =>
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(now, (at) => {
            const entry = book.entry(user, at)
            const waiter: Waiter = Deferred.makeUnsafe()
            const asking = book.enqueue(entry, lane, waiter)
              // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
              ? Effect.asVoid(Effect.forkIn(Effect.interruptible(perform(plans.ask(entry))), scope))
              : Effect.void
            const granted = restore(Deferred.await(waiter)).pipe(
              Effect.onInterrupt(() => perform(plans.withdraw(entry, lane, waiter)))
            )
            return Effect.andThen(
              asking,
              Effect.flatMap(granted, (grant) =>
                restore(perform(plans.ready(grant))).pipe(
                  Effect.onInterrupt(() => perform(plans.giveBack(grant.permit))),
                  Effect.as<PermitStore.Permit>(grant.permit)
                ))
            )
          })
        ),
      // Given back in a fiber of the store's scope, so that the caller's answer does not wait for Redis.
      release: (permit, hold) =>
        Effect.asVoid(Effect.forkIn(perform(plans.giveBack(permit as RedisPermitPlan.Permit<Waiter>, hold)), scope)),
      budget: (user) => Effect.map(connection.run("pacing", book.readBudget(user)), book.budget),
      block: (user, millis) =>
        Effect.flatMap(now, (at) => Effect.asVoid(connection.run("pacing", book.block(user, millis, at))))
    }
  })
