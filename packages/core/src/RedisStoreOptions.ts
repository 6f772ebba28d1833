/**
 * The options of either Effect line's Redis store with their defaults filled in, in milliseconds (a
 * line reads its own durations into them).
 *
 * @since 0.1.0
 */
import * as Lane from "./Lane.js"
import * as Limits from "./Limits.js"
import * as RedisKeys from "./RedisKeys.js"

/**
 * What a limiter does when Redis cannot be reached or does not answer within the timeout: fail closed,
 * or fall back to this process's own limiter.
 *
 * @since 0.1.0
 * @category models
 */
export type OnUnavailable = "fail" | "fallback"

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
  prefix: RedisKeys.defaultPrefix,
  timeoutMillis: 1_000,
  leaseMillis: 10_000,
  onUnavailable: "fail"
} as const

/**
 * How to reach Redis, with its defaults filled in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Connection {
  readonly prefix: string
  readonly timeoutMillis: number
  readonly onUnavailable: OnUnavailable
}

/**
 * The options of the connection with their defaults ({@link defaults}).
 *
 * @since 0.1.0
 * @category constructors
 */
export const connection = (options: {
  readonly prefix?: string | undefined
  readonly timeoutMillis?: number | undefined
  readonly onUnavailable?: OnUnavailable | undefined
}): Connection => ({
  prefix: options.prefix ?? defaults.prefix,
  timeoutMillis: options.timeoutMillis ?? defaults.timeoutMillis,
  onUnavailable: options.onUnavailable ?? defaults.onUnavailable
})

/**
 * The pacing permits' options with their defaults filled in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Permits {
  readonly limit: number
  readonly leaseMillis: number
  /** The permits of each window kept for interactive calls (`Lane.reserved`). */
  readonly kept: number
}

/**
 * The pacing permits' options with their defaults: the limit of the API, the lease of
 * {@link defaults}, the interactive share of `Lane`. Throws a `RangeError` for a share outside 0..1.
 *
 * @since 0.1.0
 * @category constructors
 */
export const permits = (options: {
  readonly limit?: number | undefined
  readonly leaseMillis?: number | undefined
  readonly interactiveShare?: number | undefined
}): Permits => {
  const limit = options.limit ?? Limits.requestsPerWindow
  return {
    limit,
    leaseMillis: options.leaseMillis ?? defaults.leaseMillis,
    kept: Lane.reserved(limit, options.interactiveShare ?? Lane.defaults.interactiveShare)
  }
}

/**
 * The {@link defaults} as a line gives them, with its durations (`duration` makes one of milliseconds).
 *
 * @since 0.1.0
 * @category models
 */
export interface Defaults<D> {
  readonly prefix: typeof defaults.prefix
  readonly timeout: D
  readonly lease: D
  readonly onUnavailable: typeof defaults.onUnavailable
}

/**
 * The {@link defaults} with a line's durations.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultsIn = <D>(duration: (millis: number) => D): Defaults<D> => ({
  prefix: defaults.prefix,
  timeout: duration(defaults.timeoutMillis),
  lease: duration(defaults.leaseMillis),
  onUnavailable: defaults.onUnavailable
})
