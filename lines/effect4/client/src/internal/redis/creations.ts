/**
 * The creation counts in Redis: the core's count script, one call per step.
 */
import * as Budget from "@community-api/core/Budget"
import type * as Limits from "@community-api/core/Limits"
import { keysOf } from "@community-api/core/RedisKeys"
import * as RedisScripts from "@community-api/core/RedisScripts"
import { Effect } from "effect"
import type * as CountStore from "../../CountStore.js"
import type { Connection } from "./connection.js"

/** The count store of `connection`. */
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
