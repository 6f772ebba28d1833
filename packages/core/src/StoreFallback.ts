/**
 * What the shared stores of the limiters (the permits and the counts in Redis) decide around this
 * process's memory, sans I/O: what to build once the Redis module was loaded on demand or could not
 * be (the `ioredis` package is optional), why it could not, and the one warning a process logs when
 * its limiters fall back to its own memory. Both lines carry the decisions out with their Effect (the
 * dynamic import, the scope, the log).
 *
 * @since 0.1.0
 */
import { describeUrl } from "./RedisUrl.js"

/**
 * What a limiter does when its Redis is unavailable: fail each call (`"fail"`), or fall back to this
 * process's memory (`"fallback"`), which does not count the user's other processes.
 *
 * @since 0.1.0
 * @category models
 */
export type OnUnavailable = "fail" | "fallback"

/**
 * The store to build: `"fail"`, none (the Redis module could not be loaded); `"memory"`, this
 * process's memory alone, after the one warning; `"shared"`, the Redis store alone; `"fallback"`, the
 * Redis store with this process's memory behind it while Redis cannot be reached.
 *
 * @since 0.1.0
 * @category models
 */
export type Build = "fail" | "memory" | "shared" | "fallback"

/**
 * The store to build once the Redis module is `loaded` or could not be, by `onUnavailable`.
 *
 * @since 0.1.0
 * @category utils
 */
export const build = (loaded: boolean, onUnavailable: OnUnavailable): Build =>
  loaded
    ? onUnavailable === "fallback" ? "fallback" : "shared"
    : onUnavailable === "fail"
    ? "fail"
    : "memory"

/**
 * Why the Redis store is unavailable when its module could not be loaded: the package `ioredis` is
 * missing (or broken), `error` says how.
 *
 * @since 0.1.0
 * @category utils
 */
export const moduleMissing = (error: unknown): string =>
  `the Redis store needs the package ioredis (npm install ioredis@^5): ${
    error instanceof Error ? error.message : String(error)
  }`

/**
 * What a limiter's store says when its module could not be loaded: the store at `url` named without
 * credentials (`RedisUrl.describeUrl`), and why ({@link moduleMissing}): the fields of the line's
 * `LimiterUnavailable`.
 *
 * @since 0.1.0
 * @category utils
 */
export const moduleUnavailable = <L extends string>(limiter: L, url: string, error: unknown): {
  readonly limiter: L
  readonly store: string
  readonly reason: string
} => ({ limiter, store: describeUrl(url), reason: moduleMissing(error) })

/**
 * Whether this process has warned that its limiters fell back to memory: one record per process and
 * line, kept by the line where two copies of it share it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Warned {
  done: boolean
}

/**
 * The warning to log when the shared store `store` is unavailable for `reason`: the first time in the
 * process (which `warned` records), and `undefined` after it, so that the process warns once.
 *
 * @since 0.1.0
 * @category utils
 */
export const warning = (
  warned: Warned,
  unavailable: { readonly store: string; readonly reason: string }
): string | undefined => {
  if (warned.done) return undefined
  warned.done = true
  return `the Redis store of the shared limiters is unavailable (${unavailable.store}: ${unavailable.reason}); this process ` +
    "falls back to its own limiters, which do not count the user's other processes (logged once per process)"
}
