/**
 * How the Redis store is named to users: the core's (`@community-api/core/RedisUrl`). Apart from the
 * connection, so that the layers name the store in an error (when `ioredis` cannot be loaded) without
 * loading the connection.
 *
 * @internal
 */
export { describeUrl, scrubber } from "@community-api/core/RedisUrl"
