/**
 * The creation counts in Redis: the core's count script, one call per step (`RedisCounts`).
 */
import type * as Limits from "@community-api/core/Limits"
import * as RedisCounts from "@community-api/core/RedisCounts"
import { Effect } from "effect"
import type * as CountStore from "../../CountStore.js"
import type { Connection, Run } from "./connection.js"

/** The count store of `connection`. */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): CountStore.Service =>
  RedisCounts.over<Run>(
    RedisCounts.make(connection.prefix, settings),
    ({ call, read }) => Effect.map(connection.run("creation quota", call), read)
  )
