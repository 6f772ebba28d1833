/**
 * The creation counts over Redis: every operation of `CountStore.Service` is one run of the count
 * script (see `@community-api/core/RedisScripts`), which does what `Limits` does in memory.
 *
 * @internal
 */
import * as Budget from "@community-api/core/Budget"
import { keysOf } from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import type { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../../CountStore.js"
import type { Connection } from "./connection.js"

/**
 * The creation counts in Redis.
 *
 * @internal
 */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): CountStore.Service => {
  const count = (user: string, request: RedisScripts.CountRequest) =>
    connection.run("creation quota", RedisScripts.countCreations(keysOf(connection.prefix, user), settings, request))
  return {
    take: (user) => Effect.map(count(user, { _tag: "take" }), RedisScripts.readVerdict),
    retake: (user, taken) => Effect.map(count(user, { _tag: "retake", taken }), RedisScripts.readVerdict),
    refund: (user, taken) => Effect.asVoid(count(user, { _tag: "refund", taken })),
    exhaust: (user, window) => Effect.asVoid(count(user, { _tag: "exhaust", window })),
    usedUp: (user) => Effect.map(count(user, { _tag: "usedUp" }), RedisScripts.readUsedUp),
    budget: (user) =>
      Effect.map(
        connection.run("creation quota", RedisScripts.readCreations(keysOf(connection.prefix, user))),
        (reply) => {
          const { count: counted, now } = RedisScripts.readCounts(reply)
          return Budget.creations(counted, now, settings)
        }
      )
  }
}
