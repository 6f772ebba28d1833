/**
 * The names of the environment variables that configure a client, each written here once. They live
 * apart from `Target.ts`, which re-exports them, so that the modules `Target` loads (the client's
 * config, `RedisStore`) can read them without a cycle of imports.
 */

/** @internal */
export const baseUrl = "COMMUNITY_API_BASE_URL"

/** @internal */
export const token = "COMMUNITY_API_TOKEN"

/** @internal */
export const redisUrl = "COMMUNITY_API_REDIS_URL"
