/**
 * The creation counts over Redis: every operation of `CountStore.Service` is one run of the count
 * script, as the core's `RedisCounts` says (see `@community-api/core/RedisScripts`), which does what
 * `Limits` does in memory.
 *
 * @internal
 */
import * as RedisCounts from "@community-api/core/RedisCounts"
import type { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../../CountStore.js"
import type { Connection, Run } from "./connection.js"

/**
 * The creation counts in Redis.
 *
 * @internal
 */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): CountStore.Service =>
  RedisCounts.over<Run>(
    RedisCounts.make(connection.prefix, settings),
    ({ call, read }) => Effect.map(connection.run("creation quota", call), read)
  )
