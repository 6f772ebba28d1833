/**
 * The Redis stores of the limiters (`PermitStore`, `CountStore`), over `ioredis`: the connection
 * (`redis/connection.ts`), the pacing permits (`redis/permits.ts`) and the creation counts (here: every
 * operation of `CountStore.Service` is one run of the count script, as the core's `RedisCounts` says),
 * all by the Lua scripts of `@community-api/core/RedisScripts`. This module is imported only by
 * `shared.ts` for the stores of `RedisStore` (under `Pacing.layerRedis` and `CreationQuota.layerRedis`),
 * dynamically, so that a program that never asks for Redis never loads it or `ioredis`; nothing under
 * `redis/` imports `shared.ts` or `RedisStore.ts` back.
 *
 * @internal
 */
import * as RedisCounts from "@community-api/core/RedisCounts"
import type { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"
import type { Connection, Run } from "./redis/connection.js"

export { connect, type Connection, type ConnectOptions } from "./redis/connection.js"
export { permitStore } from "./redis/permits.js"

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
