/**
 * The creation counts of either Effect line's Redis store, "sans I/O": each operation of the count
 * store as one call of the count script (see `RedisScripts`) and how its reply reads, which does what
 * `Limits` does in memory. A line runs each {@link Query} with its Effect; {@link over} makes the
 * whole store from that one way to run a query.
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import type * as Limits from "./Limits.js"
import { keysOf } from "./RedisKeys.js"
import * as RedisScripts from "./RedisScripts.js"

/**
 * A call to run and how its reply reads.
 *
 * @since 0.1.0
 * @category models
 */
export interface Query<A> {
  readonly call: RedisScripts.Call
  readonly read: (reply: RedisScripts.Reply) => A
}

/**
 * The queries of every operation of the count store, by its name there.
 *
 * @since 0.1.0
 * @category models
 */
export interface Queries {
  readonly take: (user: string) => Query<RedisScripts.Verdict>
  readonly retake: (user: string, taken: number) => Query<RedisScripts.Verdict>
  readonly refund: (user: string, taken: number) => Query<void>
  readonly exhaust: (user: string, window: Limits.CreationWindow) => Query<void>
  readonly usedUp: (user: string) => Query<Limits.CreationWindow | undefined>
  readonly budget: (user: string) => Query<Budget.Creations>
}

/**
 * What a line's run of a query returns, for a result of type `A` (its Effect of `A`): `type` read
 * with `A` set, as in Effect's own type lambdas.
 *
 * @since 0.1.0
 * @category models
 */
export interface TypeLambda {
  readonly A: unknown
  readonly type: unknown
}

/**
 * `F`'s type for a result `A`.
 *
 * @since 0.1.0
 * @category models
 */
export type Kind<F extends TypeLambda, A> = (F & { readonly A: A })["type"]

/**
 * The count store over a line's way to run a query: each operation of {@link Queries}, run.
 *
 * @since 0.1.0
 * @category models
 */
export type Store<F extends TypeLambda> = {
  readonly [K in keyof Queries]: (
    ...args: Parameters<Queries[K]>
  ) => Kind<F, ReturnType<Queries[K]> extends Query<infer A> ? A : never>
}

const ignore = (): void => undefined

/**
 * The queries of the counts of `settings` under `prefix`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (prefix: string, settings: Limits.CreationSettings): Queries => {
  const count = (user: string, request: RedisScripts.CountRequest) =>
    RedisScripts.countCreations(keysOf(prefix, user), settings, request)
  return {
    take: (user) => ({ call: count(user, { _tag: "take" }), read: RedisScripts.readVerdict }),
    retake: (user, taken) => ({ call: count(user, { _tag: "retake", taken }), read: RedisScripts.readVerdict }),
    refund: (user, taken) => ({ call: count(user, { _tag: "refund", taken }), read: ignore }),
    exhaust: (user, window) => ({ call: count(user, { _tag: "exhaust", window }), read: ignore }),
    usedUp: (user) => ({ call: count(user, { _tag: "usedUp" }), read: RedisScripts.readUsedUp }),
    budget: (user) => ({
      call: RedisScripts.readCreations(keysOf(prefix, user)),
      read: (reply) => {
        const { count: counted, now } = RedisScripts.readCounts(reply)
        return Budget.creations(counted, now, settings)
      }
    })
  }
}

/**
 * The store of `queries`, each run by `run`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const over = <F extends TypeLambda>(queries: Queries, run: <A>(query: Query<A>) => Kind<F, A>): Store<F> => {
  const store: Record<string, (...args: Array<never>) => unknown> = {}
  for (const [name, query] of Object.entries(queries) as Array<[string, (...args: Array<never>) => Query<unknown>]>) {
    store[name] = (...args) => run(query(...args))
  }
  return store as unknown as Store<F>
}
