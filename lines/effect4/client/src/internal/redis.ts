/**
 * The Redis stores, loaded only when a Redis layer is built (with `ioredis`, an optional peer).
 */
export { connect, type Connection, type ConnectOptions } from "./redis/connection.js"
export { countStore } from "./redis/creations.js"
export { permitStore } from "./redis/permits.js"
