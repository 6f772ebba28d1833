/**
 * The pacing permits over Redis: the core's `RedisPermitStore` puts the store together from the
 * `RedisPermitBook` (what to ask Redis and what its replies mean) and the `RedisPermitPlan`s (what to
 * do next: the asking loop of each user, the renewal of the permits in flight, the give-back); this
 * module gives it this line's effects: the calls, the waiters (Deferreds), the sleeps and the fibers
 * of the store's scope.
 *
 * @internal
 */
import * as RedisPermitBook from "@community-api/core/RedisPermitBook"
import * as RedisPermitPlan from "@community-api/core/RedisPermitPlan"
import * as RedisPermitStore from "@community-api/core/RedisPermitStore"
import { Deferred, Duration, Effect, FiberId, Random } from "effect"
import type { Scope } from "effect"
import type * as ClientError from "../../ClientError.js"
import type * as PermitStore from "../../PermitStore.js"
import type { Connection } from "./connection.js"

interface Waiter extends Deferred.Deferred<RedisPermitPlan.Grant<Waiter>, ClientError.LimiterUnavailable> {}
interface Fx extends RedisPermitStore.TypeLambda {
  readonly type: Effect.Effect<this["A"], this["E"]>
}

/**
 * The pacing permits in Redis (the core's `RedisPermitStore`), whose loops run in `scope`.
 *
 * @internal
 */
export const permitStore = (
  connection: Connection,
  options: { readonly limit: number; readonly leaseMillis: number; readonly kept?: number | undefined }
): Effect.Effect<PermitStore.Service, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const { renewing, store } = RedisPermitStore.make<Fx, Waiter, ClientError.LimiterUnavailable>({
      clock: Effect.clockWith((clock) => Effect.succeed(clock.unsafeCurrentTimeMillis())),
      flatMap: (self, f) => Effect.flatMap(self, f),
      map: (self, f) => Effect.map(self, f),
      match: (self, onFailure, onSuccess) => Effect.match(self, { onFailure, onSuccess }),
      void: Effect.void,
      sleep: (millis) => Effect.sleep(Duration.millis(millis)),
      run: (call) => connection.run("pacing", call),
      waiter: () => Deferred.unsafeMake(FiberId.none),
      wake: Deferred.succeed,
      fail: (waiter, error) => Deferred.unsafeDone(waiter, Effect.fail(error)),
      await: Deferred.await,
      guard: (self, cleanup) => Effect.onInterrupt(self, cleanup),
      mask: Effect.uninterruptibleMask,
      spawn: (self) => Effect.forkIn(Effect.interruptible(self), scope),
      fork: (self) => Effect.asVoid(Effect.forkIn(self, scope))
    }, { ...options, prefix: connection.prefix, processId: RedisPermitBook.processId(yield* Random.nextInt) })
    yield* Effect.forkIn(renewing, scope)
    return store
  })
