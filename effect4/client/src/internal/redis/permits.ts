/**
 * The pacing permits in Redis: leases named by this process, taken in batches for the waiters of a
 * user by the core's take script, renewed while in flight, given back after their hold. Fails
 * closed: when Redis cannot be asked, every waiter fails with the store's error.
 */
import * as Budget from "@community-api/core/Budget"
import { type Lane, lanes } from "@community-api/core/Lane"
import { keysOf } from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import * as UserTable from "@community-api/core/UserTable"
import { Deferred, Duration, Effect, Exit, Random } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "../../ClientError.js"
import type * as PermitStore from "../../PermitStore.js"
import type { Connection } from "./connection.js"

/** How often a user's waiters ask again while every permit is held. */
const pollMillis = 50

/** How far ahead of its time a permit may be granted, to be used after its delay. */
const leadMillis = 30

interface RedisPermit extends PermitStore.Permit {
  readonly name: string
}

interface Granted {
  readonly permit: RedisPermit
  readonly delayMillis: number
}

type Waiter = Deferred.Deferred<Granted, ClientError.LimiterUnavailable>

interface UserPermits {
  /** The fibers waiting for a permit by lane, each first come first served; interactive ones asked for first. */
  readonly waiters: Record<Lane, Array<Waiter>>
  asking: boolean
  readonly inFlight: Set<string>
  blockedUntil: number
}

const waiting = (permits: UserPermits) => permits.waiters.interactive.length + permits.waiters.batch.length

/** The permit store of `connection`, for the scope. */
export const permitStore = (
  connection: Connection,
  options: { readonly limit: number; readonly leaseMillis: number; readonly kept?: number | undefined }
): Effect.Effect<PermitStore.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    // A user's side leaves memory once nothing of it waits, asks, is in flight or blocked here.
    const users = UserTable.make<UserPermits>({
      create: () => ({ waiters: { interactive: [], batch: [] }, asking: false, inFlight: new Set(), blockedUntil: 0 }),
      isIdle: (permits, now) =>
        waiting(permits) === 0 && !permits.asking && permits.inFlight.size === 0 && permits.blockedUntil <= now
    })
    const now = Effect.clockWith((clock) => Effect.succeed(clock.currentTimeMillisUnsafe()))
    const permitsOf = (user: string) => Effect.map(now, (at) => users.get(user, at))
    const settle = (user: string) => Effect.map(now, (at) => users.settle(user, at))
    const processId = (yield* Random.nextInt).toString(36).replace("-", "")
    let calls = 0
    const run = (call: RedisScripts.Call) => connection.run("pacing", call)
    const giveBack = (user: string, name: string, hold: PermitStore.Hold) =>
      Effect.suspend(() => {
        users.peek(user)?.inFlight.delete(name)
        // Not given back (Redis gone meanwhile), the permit lapses within the lease.
        return Effect.andThen(
          Effect.ignore(run(RedisScripts.releasePermit(keysOf(connection.prefix, user), name, hold))),
          settle(user)
        )
      })
    const unused: PermitStore.Hold = { afterAnswerMillis: 0, afterTakeMillis: 0 }

    // Every third of the lease, one call per user renews this process's permits in flight.
    yield* Effect.forkIn(
      Effect.forever(Effect.andThen(
        Effect.sleep(Duration.millis(options.leaseMillis / 3)),
        // Read at each turn: the users in flight now.
        Effect.suspend(() =>
          Effect.forEach(Array.from(users.entries()), ([user, permits]) => {
            if (permits.inFlight.size === 0) return Effect.void
            return Effect.ignore(
              run(RedisScripts.renewPermits(keysOf(connection.prefix, user), options.leaseMillis, permits.inFlight))
            )
          }, { discard: true })
        )
      )),
      scope
    )

    const ask = (user: string, permits: UserPermits): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (waiting(permits) === 0) {
          permits.asking = false
          return settle(user)
        }
        const asked = { count: waiting(permits), interactive: permits.waiters.interactive.length }
        return run(RedisScripts.takePermits(keysOf(connection.prefix, user), {
          limit: options.limit,
          leaseMillis: options.leaseMillis,
          namePrefix: `${processId}-${(calls++).toString(36)}`,
          pollMillis,
          count: asked.count,
          interactive: asked.interactive,
          kept: options.kept,
          leadMillis
        })).pipe(
          Effect.matchEffect({
            // Fail closed: every waiter fails with the store's error.
            onFailure: (error) =>
              Effect.sync(() => {
                for (const lane of lanes) {
                  for (const waiter of permits.waiters[lane].splice(0)) Deferred.doneUnsafe(waiter, Effect.fail(error))
                }
              }),
            onSuccess: (reply) => {
              const { granted, waitMillis } = RedisScripts.readTake(reply)
              // Granted in the order asked: the interactive waiters of the ask first, then the batch ones.
              return Effect.andThen(
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
          Effect.andThen(Effect.suspend(() => ask(user, permits)))
        )
      })

    const ready = (permits: UserPermits, delayMillis: number) =>
      Effect.andThen(
        Effect.sleep(Duration.millis(delayMillis)),
        Effect.clockWith((clock) => {
          const now = clock.currentTimeMillisUnsafe()
          return permits.blockedUntil > now ? Effect.sleep(Duration.millis(permits.blockedUntil - now)) : Effect.void
        })
      )

    return {
      limit: options.limit,
      take: (user, lane = "interactive") =>
        Effect.uninterruptibleMask((restore) =>
          Effect.flatMap(permitsOf(user), (permits) => {
            const waiter: Waiter = Deferred.makeUnsafe()
            permits.waiters[lane].push(waiter)
            const asking = permits.asking ? Effect.void : Effect.suspend(() => {
              permits.asking = true
              // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
              return Effect.asVoid(Effect.forkIn(Effect.interruptible(ask(user, permits)), scope))
            })
            const granted = restore(Deferred.await(waiter)).pipe(
              Effect.onInterrupt(() =>
                Effect.suspend(() => {
                  const index = permits.waiters[lane].indexOf(waiter)
                  if (index >= 0) {
                    return Effect.andThen(Effect.sync(() => void permits.waiters[lane].splice(index, 1)), settle(user))
                  }
                  // Granted as it was interrupted: not used, the permit goes back.
                  return Effect.flatMap(
                    Effect.exit(Deferred.await(waiter)),
                    (exit) => Exit.isSuccess(exit) ? giveBack(user, exit.value.permit.name, unused) : Effect.void
                  )
                })
              )
            )
            return Effect.andThen(
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
        Effect.andThen(
          Effect.map(now, (at) => {
            const permits = users.get(user, at)
            permits.blockedUntil = Math.max(permits.blockedUntil, at + millis)
          }),
          Effect.asVoid(run(RedisScripts.blockUser(keysOf(connection.prefix, user), millis)))
        )
    }
  })
