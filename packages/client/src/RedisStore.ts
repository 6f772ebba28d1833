/**
 * The Redis store of the limiters: one user's pacing permits and creation counts shared by every
 * process and machine of the user, where the memory store (the default) holds only inside
 * one process. `Pacing.layerRedis` and `CreationQuota.layerRedis` take these options;
 * `Pacing.layerRedisConfig` and `CreationQuota.layerRedisConfig` read the URL from
 * `COMMUNITY_API_REDIS_URL` ({@link url}).
 *
 * Every process of a user must use the same Redis, the same {@link Options.prefix} and the same user
 * key (the client's `userKey`, or the hash of the token that the client derives in every process
 * alike). Permits and counts are taken and given back by Lua scripts, atomically, on the Redis
 * server's clock (`TIME`), never on the callers' clocks, so that machines whose clocks differ still
 * share one window.
 *
 * The store needs the `ioredis` package (an optional peer dependency, loaded only by these layers):
 * `npm install ioredis@^5`.
 *
 * @since 0.1.0
 */
import { Config, Duration } from "effect"
import type { Redacted } from "effect"

/**
 * What a limiter does when Redis cannot be reached or does not answer within the timeout:
 *
 * - `"fail"` (the default): fail closed; the call fails with `ClientError.LimiterUnavailable` and
 *   nothing is sent.
 * - `"fallback"`: use this process's own (memory) limiter for that request, and log one warning per
 *   process. The limits then hold inside this process only.
 *
 * @since 0.1.0
 * @category models
 */
export type OnUnavailable = "fail" | "fallback"

/**
 * How to reach Redis, shared by the pacing and the creation quota stores.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /**
   * `redis://[[user]:password@]host[:port][/db]` (or `rediss://` for TLS). Give it `Redacted` when it
   * holds a password: it never appears in a log or an error, which name the store without credentials.
   */
  readonly url: Redacted.Redacted<string> | string
  /** Prefix of every key; default `community-api:`. Every process of a user must use the same. */
  readonly prefix?: string | undefined
  /** The longest a limiter waits for one answer of Redis (and for the connection); default 1 s. */
  readonly timeout?: Duration.DurationInput | undefined
  /** When Redis is unavailable: `"fail"` (default) or `"fallback"` to this process's own limiter. */
  readonly onUnavailable?: OnUnavailable | undefined
}

/**
 * The defaults of the Redis store. The lease is how long a permit taken by a process stays held while
 * its request is in flight without being renewed: a live process renews it every third of the lease,
 * so a slow request never loses its permit, and the permits of a process that died come back at most
 * a lease after its last renewal.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  prefix: "community-api:",
  timeout: Duration.seconds(1),
  lease: Duration.seconds(10),
  onUnavailable: "fail"
} as const

/**
 * The URL of the Redis store from `COMMUNITY_API_REDIS_URL`, as `Redacted`.
 *
 * @since 0.1.0
 * @category options
 */
export const url: Config.Config<Redacted.Redacted<string>> = Config.redacted("COMMUNITY_API_REDIS_URL")
