/**
 * The Redis stores of the limiters (`PermitStore`, `CountStore`), over `ioredis`: the connection
 * (`redis/connection.ts`), the pacing permits (`redis/permits.ts`) and the creation counts
 * (`redis/creations.ts`), all by the Lua scripts of `@community-api/core/RedisScripts`. This module
 * is imported only by `shared.ts` for the stores of `RedisStore` (under `Pacing.layerRedis` and
 * `CreationQuota.layerRedis`), dynamically, so that a program that never asks for Redis never loads it
 * or `ioredis`; nothing under `redis/` imports `shared.ts` or `RedisStore.ts` back.
 *
 * @internal
 */
export { connect, type Connection, type ConnectOptions } from "./redis/connection.js"
export { countStore } from "./redis/creations.js"
export { permitStore } from "./redis/permits.js"
