/**
 * The names of the environment variables that configure a client: the core's (written there once,
 * for both Effect lines). They are read through here, apart from `Target.ts`, so that the modules
 * `Target` loads (the client's config, `RedisStore`) can read them without a cycle of imports.
 */
export { baseUrl, redisUrl, token } from "@community-api/core/Environment"
