/**
 * The two stores of either line's `RedisStore`, the pacing permits and the creation counts, as data: the
 * limiter each serves (as errors name it), the rules of its options and its settings with their
 * defaults. A line makes each store of it with its own effects (the connection, the memory store, the
 * fallback between them).
 *
 * @since 0.1.0
 */
import * as CreationBook from "./CreationBook.js"
import type * as Limits from "./Limits.js"
import * as OptionRules from "./OptionRules.js"
import * as RedisStoreOptions from "./RedisStoreOptions.js"

/**
 * One store: `O` the options given (a line's, its durations read as milliseconds by the line), `S`
 * its settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Kind<O, S> {
  /** The limiter it serves, as its errors name it. */
  readonly limiter: "pacing" | "creation quota"
  /** The first of the options given that is refused, if any (`OptionRules`). */
  readonly refusal: (options: O, reading: OptionRules.Reading) => OptionRules.Refusal | undefined
  /** Its settings, with their defaults; `leaseMillis` the lease given, if any. */
  readonly settings: (options: O, leaseMillis: number | undefined) => S
}

/**
 * The store of the pacing permits.
 *
 * @since 0.1.0
 * @category constants
 */
export const permits: Kind<
  { readonly limit?: number | undefined; readonly interactiveShare?: number | undefined },
  RedisStoreOptions.Permits
> = {
  limiter: "pacing",
  refusal: (options, reading) =>
    OptionRules.store(options, reading) ?? OptionRules.pacing({ limit: options.limit }, reading),
  settings: (options, leaseMillis) => RedisStoreOptions.permits({ ...options, leaseMillis })
}

/**
 * The store of the creation counts.
 *
 * @since 0.1.0
 * @category constants
 */
export const counts: Kind<CreationBook.Settings, Limits.CreationSettings> = {
  limiter: "creation quota",
  refusal: (options, reading) => OptionRules.store(options, reading) ?? OptionRules.quota(options),
  settings: (options) => CreationBook.settingsOf(options)
}
