/**
 * The pacing permits over Redis: the core's `RedisPermitBook` decides what to ask Redis and what its
 * replies mean (waiters batched into one take per user, permits in flight renewed until given back, a
 * take whose reply never came given back); this module sends its calls, wakes the waiters and sleeps.
 */
import type { Lane } from "@community-api/core/Lane"
import * as RedisPermitBook from "@community-api/core/RedisPermitBook"
import type * as RedisScripts from "@community-api/core/RedisScripts"
import { Deferred, Duration, Effect, Exit, Random } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "../../ClientError.js"
import type * as PermitStore from "../../PermitStore.js"
import type { Connection } from "./connection.js"

interface RedisPermit extends PermitStore.Permit {
  readonly entry: RedisPermitBook.Entry<Waiter>
  readonly name: string
}

/** A permit granted to a waiter, and how long until it may be used (a permit reserved as it comes back). */
interface Granted {
  readonly permit: RedisPermit
  readonly delayMillis: number
}

type Waiter = Deferred.Deferred<Granted, ClientError.LimiterUnavailable>
type Entry = RedisPermitBook.Entry<Waiter>

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
      processId: (yield* Random.nextInt).toString(36).replace("-", "")
    })
    const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
    const run = (call: RedisScripts.Call) => connection.run("pacing", call)
    const giveBack = (entry: Entry, name: string, hold: PermitStore.Hold) =>
      Effect.suspend(() =>
        // Not given back (Redis gone meanwhile), the permit lapses within the lease.
        Effect.andThen(
          Effect.ignore(run(book.release(entry, name, hold))),
          Effect.map(now, (at) => book.settle(entry.user, at))
        )
      )

    /** Gives back the permits of the user's take whose reply never came, if any is still pending. */
    const returnUnanswered = (entry: Entry): Effect.Effect<void, ClientError.LimiterUnavailable> =>
      Effect.flatMap(now, (at) => {
        const pending = book.pendingReturn(entry, at)
        if (pending === undefined) return Effect.void
        return Effect.andThen(run(pending.call), Effect.map(now, (at) => book.returned(entry, pending.unanswered, at)))
      })

    /** Fails every waiter of the user with the store's error (fail closed). */
    const failWaiters = (entry: Entry, error: ClientError.LimiterUnavailable) =>
      Effect.sync(() => {
        for (const waiter of book.drain(entry)) Deferred.doneUnsafe(waiter, Effect.fail(error))
      })

    // Every third of the lease, one call per user renews this process's permits in flight; a renewal
    // that fails is tried again at the next turn (the lease covers two that fail). A take whose reply
    // never came, not yet given back (Redis was unreachable), is tried again too: its user may have no
    // waiter left here to try it, while the user's other processes wait for its permits.
    yield* Effect.forkIn(
      Effect.forever(Effect.andThen(
        Effect.sleep(Duration.millis(options.leaseMillis / 3)),
        // Read at each turn: the users in flight now.
        Effect.suspend(() =>
          Effect.forEach(book.renewals(), ({ call, entry }) =>
            Effect.andThen(
              call === undefined ? Effect.void : Effect.ignore(run(call)),
              Effect.ignore(returnUnanswered(entry))
            ), { discard: true })
        )
      )),
      scope
    )

    /**
     * Asks Redis for the waiters of the user until none is left; runs in `scope`. A take whose reply
     * never came is given back before the next take (so that this process does not ask for permits
     * past its own unused ones), and first right after it failed: sent on the same connection after
     * the take, the return runs after it even when a stalled Redis runs both only when it wakes, so
     * the permits granted then go to the waiters that wait then, and to the user's other processes.
     * Fail closed: every waiter there when a call fails fails with it, so that none waits on a store
     * that does not answer for much longer than one call's timeout.
     */
    const ask = (entry: Entry): Effect.Effect<void> =>
      Effect.flatMap(now, (at) => {
        const take = book.nextTake(entry, at)
        if (take === undefined) return Effect.void
        const taken = run(take.call).pipe(
          Effect.tapError(() => Effect.map(now, (at) => book.takeFailed(entry, take, at)))
        )
        return Effect.andThen(returnUnanswered(entry), taken).pipe(
          Effect.matchEffect({
            onFailure: (error) =>
              Effect.andThen(
                failWaiters(entry, error),
                // Once more at once: after a take that failed, sent on its connection behind it.
                Effect.catch(returnUnanswered(entry), (error) => failWaiters(entry, error))
              ),
            onSuccess: (reply) => {
              const { granted, sleepMillis } = book.answered(entry, take, reply)
              return Effect.andThen(
                Effect.forEach(granted, ({ delayMillis, name, waiter }) =>
                  // Its waiter was interrupted meanwhile: not used, the permit goes back.
                  waiter === undefined
                    ? giveBack(entry, name, RedisPermitBook.unused)
                    : Deferred.succeed(waiter, { permit: { user: entry.user, entry, name }, delayMillis }), {
                  discard: true
                }),
                sleepMillis === undefined ? Effect.void : Effect.sleep(Duration.millis(sleepMillis))
              )
            }
          }),
          Effect.andThen(Effect.suspend(() => ask(entry)))
        )
      })

    /** Waits until a granted permit may be used and this process's own block of the user is over. */
    const ready = (entry: Entry, delayMillis: number) =>
      Effect.andThen(
        Effect.sleep(Duration.millis(delayMillis)),
        Effect.flatMap(now, (at) => {
          const millis = book.blockedFor(entry, at)
          return millis > 0 ? Effect.sleep(Duration.millis(millis)) : Effect.void
        })
      )

    return {
      limit: options.limit,
      take: (user, lane: Lane = "interactive") =>
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(now, (at) => {
            const entry = book.entry(user, at)
            const waiter = Deferred.makeUnsafe<Granted, ClientError.LimiterUnavailable>()
            const asking = book.enqueue(entry, lane, waiter)
              // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
              ? Effect.asVoid(Effect.forkIn(Effect.interruptible(ask(entry)), scope))
              : Effect.void
            const granted = restore(Deferred.await(waiter)).pipe(
              Effect.onInterrupt(() =>
                Effect.flatMap(now, (at) =>
                  book.remove(entry, lane, waiter, at)
                    ? Effect.void
                    // Granted as it was interrupted: not used, the permit goes back.
                    : Effect.flatMap(
                      Effect.exit(Deferred.await(waiter)),
                      (exit) =>
                        Exit.isSuccess(exit)
                          ? giveBack(entry, exit.value.permit.name, RedisPermitBook.unused)
                          : Effect.void
                    ))
              )
            )
            return Effect.andThen(
              asking,
              Effect.flatMap(granted, ({ delayMillis, permit }) =>
                restore(ready(entry, delayMillis)).pipe(
                  Effect.onInterrupt(() => giveBack(entry, permit.name, RedisPermitBook.unused)),
                  Effect.as<PermitStore.Permit>(permit)
                ))
            )
          })
        ),
      // Given back in a fiber of the store's scope, so that the caller's answer does not wait for Redis.
      release: (permit, hold) => {
        const { entry, name } = permit as RedisPermit
        return Effect.asVoid(Effect.forkIn(giveBack(entry, name, hold), scope))
      },
      budget: (user) => Effect.map(run(book.readBudget(user)), book.budget),
      block: (user, millis) => Effect.flatMap(now, (at) => Effect.asVoid(run(book.block(user, millis, at))))
    }
  })
