/**
 * What a client is made with, read from its options (`ClientOptions.Config`, checked by
 * `OptionRules.client` before): each option given or its default, durations in milliseconds, and the
 * user its limits are counted for. Both lines' clients read their options through it, so that their
 * defaults cannot drift apart.
 *
 * @since 0.1.0
 */
import type * as ClientOptions from "./ClientOptions.js"
import * as JsonBody from "./JsonBody.js"
import type * as Lane from "./Lane.js"
import type * as OptionRules from "./OptionRules.js"
import * as UserKey from "./UserKey.js"

/**
 * The time one attempt is allowed by default: 30 s.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultTimeoutMillis = 30_000

/**
 * The time a whole call is allowed by default: 120 s, one wait for the next creation minute plus a
 * whole attempt.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultDeadlineMillis = 120_000

/**
 * A client's settings: each option given or its default.
 *
 * @since 0.1.0
 * @category models
 */
export interface Settings {
  /** Time allowed for one attempt, in milliseconds (`Infinity` for none). */
  readonly timeoutMillis: number
  /** Time allowed for a whole call, in milliseconds (`Infinity` for none). */
  readonly deadlineMillis: number
  /** The largest body the client reads, in bytes. */
  readonly maxResponseBytes: number
  /** When the creation minute is used up: wait for the next minute, or fail at once. */
  readonly onCreationLimit: "wait" | "fail"
  /** The lane of the client's calls that are not marked (`undefined`: the limiters' default). */
  readonly lane: Lane.Lane | undefined
  /**
   * The key of the client's user for the shared limiters: its `userKey`, or a stable key of the token,
   * never the token itself (`UserKey.ofToken`).
   */
  readonly user: string
}

/**
 * The settings of a client's options, read as the line reads its values (`reading`: its durations and
 * its secret). The options are the ones `OptionRules.client` let through: a duration given is one.
 *
 * @since 0.1.0
 * @category constructors
 */
export const of = <Secret, Duration, Policy>(
  config: ClientOptions.Config<Secret, Duration, Policy>,
  reading: OptionRules.Reading
): Settings => {
  const millis = (given: Duration | undefined, otherwise: number) =>
    given === undefined ? otherwise : reading.millis(given) ?? otherwise
  return {
    timeoutMillis: millis(config.timeout, defaultTimeoutMillis),
    deadlineMillis: millis(config.deadline, defaultDeadlineMillis),
    maxResponseBytes: config.maxResponseBytes ?? JsonBody.defaultMaxBytes,
    onCreationLimit: config.onCreationLimit ?? "wait",
    lane: config.lane,
    user: config.userKey ?? UserKey.ofToken(String(reading.secret(config.token)?.text))
  }
}
