/**
 * The Redis stores, loaded only when a Redis layer is built (with `ioredis`, an optional peer): the
 * connection, the pacing permits, and the creation counts in Redis (here: the core's count script,
 * one call per step, `RedisCounts`).
 */
import type * as Limits from "@community-api/core/Limits"
import * as RedisCounts from "@community-api/core/RedisCounts"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"
import type { Connection, Run } from "./redis/connection.js"

export { connect, type Connection, type ConnectOptions } from "./redis/connection.js"
export { permitStore } from "./redis/permits.js"

/** The count store of `connection`. */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): CountStore.Service =>
  RedisCounts.over<Run>(
    RedisCounts.make(connection.prefix, settings),
    ({ call, read }) => Effect.map(connection.run("creation quota", call), read)
  )
