/**
 * The pacing permits over Redis (the scripts of `@community-api/core/RedisScripts`): this process's
 * waiters batched into one take per user, its permits in flight renewed until given back.
 *
 * @internal
 */
import * as Budget from "@community-api/core/Budget"
import { type Lane, lanes } from "@community-api/core/Lane"
import { keysOf } from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import * as UserTable from "@community-api/core/UserTable"
import { Deferred, Duration, Effect, Exit, FiberId, Random } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "../../ClientError.js"
import type * as PermitStore from "../../PermitStore.js"
import type { Connection } from "./connection.js"

/** The longest a waiter sleeps while permits are in flight: one may be given back with a short hold. */
const pollMillis = 50

/**
 * How far ahead a permit coming back is reserved for a waiter: more than a round trip to Redis and the
 * wake-up of a busy process. A permit reserved before another process blocked the user is used when it
 * comes back all the same (this process's own blocks hold for it).
 */
const leadMillis = 30

interface RedisPermit extends PermitStore.Permit {
  readonly name: string
}

/** A permit granted to a waiter, and how long until it may be used (a permit reserved as it comes back). */
interface Granted {
  readonly permit: RedisPermit
  readonly delayMillis: number
}

/** How many waiters a take asked for, and how many of them interactive (served first). */
interface Asked {
  readonly count: number
  readonly interactive: number
}

type Waiter = Deferred.Deferred<Granted, ClientError.LimiterUnavailable>

/** This process's side of one user's permits. */
interface UserPermits {
  /** The fibers waiting for a permit by lane, each first come first served; interactive ones asked for first. */
  readonly waiters: Record<Lane, Array<Waiter>>
  /** Whether a fiber is asking Redis for the waiters. */
  asking: boolean
  /** The names of this process's permits in flight (or reserved), renewed until given back. */
  readonly inFlight: Set<string>
  /** Until when this process blocked the user (the store's block holds for a permit reserved before it). */
  blockedUntil: number
  /** The take whose reply never came, while its permits could still be held ({@link Unanswered}). */
  unanswered: Unanswered | undefined
}

/**
 * A take whose reply never came: it timed out (a stalled Redis runs it when it wakes) or its
 * connection failed (it may have run before). Its permits reach no waiter and nothing renews them,
 * so they are given back by the prefix of their names, until a lease after the take failed: by then
 * any it granted before the failure has lapsed. No take is sent while one is pending: one at most
 * per user.
 */
interface Unanswered {
  readonly namePrefix: string
  readonly until: number
}

const waiting = (permits: UserPermits) => permits.waiters.interactive.length + permits.waiters.batch.length

/**
 * The pacing permits in Redis. In this process one fiber per user asks Redis, for as many permits as
 * fibers wait for one (which get them in the order they came), and sleeps until Redis says one may be
 * free; one fiber renews every permit of this process in flight. Both run in `scope`.
 *
 * @internal
 */
export const permitStore = (
  connection: Connection,
  options: { readonly limit: number; readonly leaseMillis: number; readonly kept?: number | undefined }
): Effect.Effect<PermitStore.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    // A user's side leaves memory once nothing of it waits, asks, is in flight or blocked here.
    const users = UserTable.make<UserPermits>({
      create: () => ({
        waiters: { interactive: [], batch: [] },
        asking: false,
        inFlight: new Set(),
        blockedUntil: 0,
        unanswered: undefined
      }),
      isIdle: (permits, now) =>
        waiting(permits) === 0 && !permits.asking && permits.inFlight.size === 0 &&
        permits.blockedUntil <= now && (permits.unanswered === undefined || permits.unanswered.until <= now)
    })
    const now = Effect.clockWith((clock) => Effect.succeed(clock.unsafeCurrentTimeMillis()))
    const permitsOf = (user: string) => Effect.map(now, (at) => users.get(user, at))
    const settle = (user: string) => Effect.map(now, (at) => users.settle(user, at))
    const processId = (yield* Random.nextInt).toString(36).replace("-", "")
    let calls = 0
    const run = (call: RedisScripts.Call) => connection.run("pacing", call)
    const giveBack = (user: string, name: string, hold: PermitStore.Hold) =>
      Effect.suspend(() => {
        users.peek(user)?.inFlight.delete(name)
        // Not given back (Redis gone meanwhile), the permit lapses within the lease.
        return Effect.zipRight(
          Effect.ignore(run(RedisScripts.releasePermit(keysOf(connection.prefix, user), name, hold))),
          settle(user)
        )
      })
    /** A permit taken and not used: back when it would have come back anyway (its take, if reserved). */
    const unused: PermitStore.Hold = { afterAnswerMillis: 0, afterTakeMillis: 0 }

    /** Gives back the permits of the user's take whose reply never came, if any is still pending. */
    const returnUnanswered = (
      user: string,
      permits: UserPermits
    ): Effect.Effect<void, ClientError.LimiterUnavailable> =>
      Effect.flatMap(now, (at) => {
        const unanswered = permits.unanswered
        if (unanswered === undefined) return Effect.void
        const done = Effect.suspend(() => {
          if (permits.unanswered === unanswered) permits.unanswered = undefined
          return settle(user)
        })
        if (unanswered.until <= at) return done
        return Effect.zipRight(
          run(RedisScripts.returnTake(keysOf(connection.prefix, user), unanswered.namePrefix)),
          done
        )
      })

    /** Fails every waiter of the user with the store's error (fail closed). */
    const failWaiters = (permits: UserPermits, error: ClientError.LimiterUnavailable) =>
      Effect.sync(() => {
        for (const lane of lanes) {
          for (const waiter of permits.waiters[lane].splice(0)) Deferred.unsafeDone(waiter, Effect.fail(error))
        }
      })

    // Every third of the lease, one call per user renews this process's permits in flight; a renewal
    // that fails is tried again at the next turn (the lease covers two that fail). A name leaves the
    // set before its release is sent, so no renewal sent after the release names it. A take whose
    // reply never came, not yet given back (Redis was unreachable), is tried again too: its user may
    // have no waiter left here to try it, while the user's other processes wait for its permits.
    yield* Effect.forkIn(
      Effect.forever(Effect.zipRight(
        Effect.sleep(Duration.millis(options.leaseMillis / 3)),
        // Read at each turn: the users in flight now.
        Effect.suspend(() =>
          Effect.forEach(Array.from(users.entries()), ([user, permits]) =>
            Effect.zipRight(
              permits.inFlight.size === 0 ? Effect.void : Effect.ignore(
                run(RedisScripts.renewPermits(keysOf(connection.prefix, user), options.leaseMillis, permits.inFlight))
              ),
              Effect.ignore(returnUnanswered(user, permits))
            ), { discard: true })
        )
      )),
      scope
    )

    /** Takes permits for the waiters of `user`; a take whose reply never came is marked to be given back. */
    const takeFor = (user: string, permits: UserPermits, asked: Asked) =>
      Effect.suspend(() => {
        const namePrefix = `${processId}-${(calls++).toString(36)}`
        return run(RedisScripts.takePermits(keysOf(connection.prefix, user), {
          limit: options.limit,
          leaseMillis: options.leaseMillis,
          namePrefix,
          pollMillis,
          count: asked.count,
          interactive: asked.interactive,
          kept: options.kept,
          leadMillis
        })).pipe(
          Effect.tapError(() =>
            Effect.map(now, (at) => {
              permits.unanswered = { namePrefix, until: at + options.leaseMillis }
            })
          )
        )
      })

    /**
     * Asks Redis for the waiters of `user` until none is left; runs in `scope`. A take whose reply
     * never came is given back before the next take (so that this process does not ask for permits
     * past its own unused ones), and first right after it failed: sent on the same connection after
     * the take, the return runs after it even when a stalled Redis runs both only when it wakes, so
     * the permits granted then go to the waiters that wait then, and to the user's other processes.
     * Fail closed: every waiter there when a call fails fails with it, so that none waits on a store
     * that does not answer for much longer than one call's timeout.
     */
    const ask = (user: string, permits: UserPermits): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (waiting(permits) === 0) {
          permits.asking = false
          return settle(user)
        }
        // Granted in the order asked: the interactive waiters of the ask first, then the batch ones.
        const asked: Asked = { count: waiting(permits), interactive: permits.waiters.interactive.length }
        return Effect.zipRight(returnUnanswered(user, permits), takeFor(user, permits, asked)).pipe(
          Effect.matchEffect({
            onFailure: (error) =>
              Effect.zipRight(
                failWaiters(permits, error),
                // Once more at once: after a take that failed, sent on its connection behind it.
                Effect.catchAll(returnUnanswered(user, permits), (error) => failWaiters(permits, error))
              ),
            onSuccess: (reply) => {
              const { granted, waitMillis } = RedisScripts.readTake(reply)
              return Effect.zipRight(
                Effect.forEach(granted, ({ delayMillis, name }, index) => {
                  const permit: RedisPermit = { user, name }
                  permits.inFlight.add(permit.name)
                  const waiter = permits.waiters[index < asked.interactive ? "interactive" : "batch"].shift()
                  // Its waiter was interrupted meanwhile: not used, the permit goes back.
                  return waiter === undefined
                    ? giveBack(user, permit.name, unused)
                    : Deferred.succeed(waiter, { permit, delayMillis })
                }, { discard: true }),
                waiting(permits) > 0
                  ? Effect.sleep(Duration.millis(Math.ceil(waitMillis)))
                  : Effect.void
              )
            }
          }),
          Effect.zipRight(ask(user, permits))
        )
      })

    /** Waits until a granted permit may be used and this process's own block of the user is over. */
    const ready = (permits: UserPermits, delayMillis: number) =>
      Effect.zipRight(
        Effect.sleep(Duration.millis(delayMillis)),
        Effect.clockWith((clock) => {
          const now = clock.unsafeCurrentTimeMillis()
          return permits.blockedUntil > now ? Effect.sleep(Duration.millis(permits.blockedUntil - now)) : Effect.void
        })
      )

    return {
      limit: options.limit,
      take: (user, lane = "interactive") =>
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(permitsOf(user), (permits) => {
            const waiter = Deferred.unsafeMake<Granted, ClientError.LimiterUnavailable>(FiberId.none)
            permits.waiters[lane].push(waiter)
            const asking = permits.asking ? Effect.void : Effect.suspend(() => {
              permits.asking = true
              // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
              return Effect.forkIn(Effect.interruptible(ask(user, permits)), scope)
            })
            const granted = restore(Deferred.await(waiter)).pipe(
              Effect.onInterrupt(() =>
                Effect.suspend(() => {
                  const index = permits.waiters[lane].indexOf(waiter)
                  if (index >= 0) {
                    return Effect.zipRight(Effect.sync(() => permits.waiters[lane].splice(index, 1)), settle(user))
                  }
                  // Granted as it was interrupted: not used, the permit goes back.
                  return Effect.flatMap(
                    Effect.exit(Deferred.await(waiter)),
                    (exit) => Exit.isSuccess(exit) ? giveBack(user, exit.value.permit.name, unused) : Effect.void
                  )
                })
              )
            )
            return Effect.zipRight(
              asking,
              Effect.flatMap(granted, ({ delayMillis, permit }) =>
                restore(ready(permits, delayMillis)).pipe(
                  Effect.onInterrupt(() => giveBack(user, permit.name, unused)),
                  Effect.as<PermitStore.Permit>(permit)
                ))
            )
          })
        ),
      // Given back in a fiber of the store's scope, so that the caller's answer does not wait for Redis.
      release: (permit, hold) => {
        const { name, user } = permit as RedisPermit
        return Effect.asVoid(Effect.forkIn(giveBack(user, name, hold), scope))
      },
      budget: (user) =>
        Effect.map(run(RedisScripts.readPermits(keysOf(connection.prefix, user))), (reply) =>
          Budget.requests({ limit: options.limit, ...RedisScripts.readPermitsLeft(reply) })),
      block: (user, millis) =>
        Effect.zipRight(
          Effect.map(now, (at) => {
            const permits = users.get(user, at)
            permits.blockedUntil = Math.max(permits.blockedUntil, at + millis)
          }),
          Effect.asVoid(run(RedisScripts.blockUser(keysOf(connection.prefix, user), millis)))
        )
    }
  })
