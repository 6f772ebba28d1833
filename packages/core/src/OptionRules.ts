/**
 * What every option of both Effect lines takes, checked where it is given: the client's
 * (`ClientOptions.Config`), the pacing's (`PacingBook.Options`, the lease and the interactive share of
 * its Redis store), the creation quota's and the Redis stores' (`RedisStoreOptions`). Each rule gives
 * the reason a value is refused, or `undefined` when it is taken; a line raises its
 * `ClientError.InvalidConfig { option, reason }` with it, whether the value came from code, from its
 * `Config` or from plain JavaScript of any type. A reason says what the option takes and what it was
 * given, never the value of a secret.
 *
 * Durations are read by the line (its `Duration` input); a rule takes their milliseconds, or
 * `undefined` when the value is no duration at all.
 *
 * @since 0.1.0
 */
import * as BaseUrl from "./BaseUrl.js"
import * as Limits from "./Limits.js"
import * as RedisStoreOptions from "./RedisStoreOptions.js"
import * as UserKey from "./UserKey.js"

/**
 * An option refused: its name and why.
 *
 * @since 0.1.0
 * @category models
 */
export interface Refusal {
  readonly option: string
  readonly reason: string
}

/**
 * A value as a reason shows it: a number or a short text as it is, any other value by its type. Never
 * used for a secret.
 *
 * @since 0.1.0
 * @category utils
 */
export const shown = (value: unknown): string => {
  if (typeof value === "string") return value.length <= 40 ? JSON.stringify(value) : "a text"
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value)
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  return typeof value === "object" ? "an object" : typeof value
}

/**
 * The reason of a duration refused: `millis` is the line's reading of the value, `undefined` when it
 * is no duration (then the value itself is shown). `infinite` says whether an infinite one is taken
 * (a deadline, a timeout); `zero` whether zero is (a margin).
 *
 * @since 0.1.0
 * @category options
 */
export const duration = (
  millis: number | undefined,
  given: unknown,
  options: { readonly infinite?: boolean; readonly zero?: boolean } = {}
): string | undefined => {
  const takes = options.zero === true ? "a duration of zero or more" : "a duration greater than zero"
  if (millis === undefined || Number.isNaN(millis)) {
    return `must be ${takes} (a Duration, a number of millis or a text such as "10 seconds"), not ${shown(given)}`
  }
  if (millis === Infinity && options.infinite !== true) return `must be ${takes} and finite, not an infinite one`
  if (millis < 0 || (millis === 0 && options.zero !== true)) return `must be ${takes}, not ${millis} millis`
  return undefined
}

/**
 * The reason of a whole number refused: it must be one from `min` to `max` (the API's limit, say why
 * in `because`).
 *
 * @since 0.1.0
 * @category options
 */
export const wholeNumber = (
  value: unknown,
  min: number,
  max: number,
  because?: string
): string | undefined =>
  typeof value === "number" && Number.isInteger(value) && value >= min && value <= max
    ? undefined
    : `must be a whole number from ${min} to ${max}${because === undefined ? "" : ` (${because})`}, not ${shown(value)}`

/**
 * The reason of a choice refused: it must be one of `choices`.
 *
 * @since 0.1.0
 * @category options
 */
export const oneOf = (value: unknown, choices: ReadonlyArray<string>): string | undefined =>
  typeof value === "string" && choices.includes(value)
    ? undefined
    : `must be ${choices.map((choice) => JSON.stringify(choice)).join(" or ")}, not ${shown(value)}`

/**
 * The reason of a share refused: a number from 0 to 1.
 *
 * @since 0.1.0
 * @category options
 */
export const share = (value: unknown): string | undefined =>
  typeof value === "number" && value >= 0 && value <= 1
    ? undefined
    : `must be a number from 0 to 1, not ${shown(value)}`

/**
 * The reason of a token refused: `redacted` says whether the line's `Redacted` holds it, `text` is
 * what it holds then. A token that is not `Redacted` or is blank is refused; the value is never shown.
 *
 * @since 0.1.0
 * @category options
 */
export const token = (given: unknown, redacted: boolean, text: unknown): string | undefined => {
  if (!redacted) {
    return `must be Redacted (Redacted.make(token), or Config.redacted from the environment), not ${
      typeof given === "string" ? "a plain string" : given === undefined ? "missing" : shown(given)
    }`
  }
  if (typeof text !== "string") return "must be a Redacted text"
  return text.trim() === "" ? "must not be empty: the API refuses every call without a token" : undefined
}

/**
 * The reason of a `userKey` refused: a text, neither empty nor blank (`UserKey.problem`).
 *
 * @since 0.1.0
 * @category options
 */
export const userKey = (value: unknown): string | undefined =>
  typeof value === "string" ? UserKey.problem(value) : `must be a text, not ${shown(value)}`

/**
 * The schemes a Redis URL may have: one server (`redis:`, `rediss:` for TLS) or the nodes of a cluster.
 *
 * @since 0.1.0
 * @category constants
 */
export const redisSchemes: ReadonlyArray<string> = ["redis:", "rediss:", "redis+cluster:", "rediss+cluster:"]

/**
 * The reason of a Redis URL refused: a text (the line reads it out of its `Redacted` first) of a
 * known scheme ({@link redisSchemes}), and a database, when it names one, that is a whole number. The
 * URL is never shown: it may hold a password.
 *
 * @since 0.1.0
 * @category options
 */
export const redisUrl = (value: unknown): string | undefined => {
  const takes = `must be a URL of ${redisSchemes.join(", ")} (such as redis://host:6379/0)`
  if (typeof value !== "string") return `${takes}, not ${shown(value)}`
  const scheme = /^([a-z][a-z0-9+.-]*:)\/\//i.exec(value)?.[1]?.toLowerCase()
  if (scheme === undefined || !redisSchemes.includes(scheme)) {
    return `${takes}, not ${scheme === undefined ? "a text without one" : `one of ${scheme}`}`
  }
  if (scheme.endsWith("+cluster:")) return undefined
  let path: string
  try {
    path = new URL(value).pathname
  } catch {
    return `${takes}: this one cannot be read`
  }
  return /^\/?(\d+)?$/.test(path) ? undefined : `${takes}: its path names a database by its number, not "${path}"`
}

/**
 * The reason of a key prefix refused: a text (empty is taken: no prefix).
 *
 * @since 0.1.0
 * @category options
 */
export const prefix = (value: unknown): string | undefined =>
  typeof value === "string" ? undefined : `must be a text, not ${shown(value)}`

/**
 * The reason of a `maxResponseBytes` refused: a whole number of bytes from 1.
 *
 * @since 0.1.0
 * @category options
 */
export const maxResponseBytes = (value: unknown): string | undefined => wholeNumber(value, 1, Number.MAX_SAFE_INTEGER)

/**
 * The reason of a pacing `limit` refused: the API answers error 5 past its requests a window.
 *
 * @since 0.1.0
 * @category options
 */
export const pacingLimit = (value: unknown): string | undefined =>
  wholeNumber(
    value,
    1,
    Limits.requestsPerWindow,
    `the API allows ${Limits.requestsPerWindow} requests a second and answers error 5 past them`
  )

/**
 * The reason of a creation quota's `perMinute` or `perDay` refused: the API refuses creations past them.
 *
 * @since 0.1.0
 * @category options
 */
export const creations = (window: Limits.CreationWindow, value: unknown): string | undefined => {
  const max = window === "minute" ? Limits.creationsPerMinute : Limits.creationsPerDay
  return wholeNumber(value, 1, max, `the API allows ${max} creations a ${window}`)
}

/**
 * The reason of an optional retry count (`limitRetries`) refused: a whole number of 0 or more.
 *
 * @since 0.1.0
 * @category options
 */
export const retries = (value: unknown): string | undefined => wholeNumber(value, 0, Number.MAX_SAFE_INTEGER)

/**
 * The reason of a `baseUrl` refused (`BaseUrl.problem`), of any type.
 *
 * @since 0.1.0
 * @category options
 */
export const baseUrl = (value: unknown): string | undefined =>
  typeof value === "string" || value instanceof URL
    ? BaseUrl.problem(value)
    : `must be a URL or a text of one, not ${shown(value)}`

/**
 * The first refusal of `checks` (option and reason, the option checked only when it is given), or
 * `undefined` when every one is taken.
 *
 * @since 0.1.0
 * @category utils
 */
export const first = (
  checks: ReadonlyArray<readonly [option: string, given: unknown, rule: (given: unknown) => string | undefined]>
): Refusal | undefined => {
  for (const [option, given, rule] of checks) {
    if (given === undefined) continue
    const reason = rule(given)
    if (reason !== undefined) return { option, reason }
  }
  return undefined
}

/**
 * How a line reads its own values for the rules: the milliseconds of its duration input (`undefined`
 * when the value is none), and the text its `Redacted` holds (`undefined` when the value is no
 * `Redacted`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Reading {
  readonly millis: (given: unknown) => number | undefined
  readonly secret: (given: unknown) => { readonly text: unknown } | undefined
}

type Options = { readonly [option: string]: unknown }

const field = (options: unknown, name: string): unknown =>
  typeof options === "object" && options !== null ? (options as Options)[name] : undefined

const durationRule =
  (reading: Reading, allowed: { readonly infinite?: boolean; readonly zero?: boolean } = {}) => (given: unknown) =>
    duration(reading.millis(given), given, allowed)

const objectRule = (given: unknown): string | undefined =>
  typeof given === "object" && given !== null && !Array.isArray(given) ?
    undefined :
    `must be an object, not ${shown(given)}`

/**
 * The first refusal of a client's options (`ClientOptions.Config`): the base URL and the token, which
 * it must have, then every other option given. The token is never shown.
 *
 * @since 0.1.0
 * @category options
 */
export const client = (config: unknown, reading: Reading): Refusal | undefined => {
  const options = objectRule(config)
  if (options !== undefined) return { option: "config", reason: options }
  const given = field(config, "token")
  const secret = reading.secret(given)
  const retry = field(config, "retry")
  return first([
    ["baseUrl", field(config, "baseUrl") ?? null, baseUrl],
    ["token", given ?? null, () => token(given, secret !== undefined, secret?.text)],
    ["auth", field(config, "auth"), (value) => oneOf(value, ["header", "body"])],
    ["timeout", field(config, "timeout"), durationRule(reading, { infinite: true })],
    ["deadline", field(config, "deadline"), durationRule(reading, { infinite: true })],
    ["maxResponseBytes", field(config, "maxResponseBytes"), maxResponseBytes],
    ["retry", retry, objectRule],
    ["retry.limitRetries", field(retry, "limitRetries"), retries],
    ["userKey", field(config, "userKey"), userKey],
    ["onCreationLimit", field(config, "onCreationLimit"), (value) => oneOf(value, ["wait", "fail"])],
    ["lane", field(config, "lane"), (value) => oneOf(value, ["interactive", "batch"])]
  ])
}

/**
 * The first refusal of a pacing's settings (`PacingBook.Options`) given: `limit` (at most the API's),
 * `window`, `margin` (zero taken) and `hold`.
 *
 * @since 0.1.0
 * @category options
 */
export const pacing = (settings: unknown, reading: Reading): Refusal | undefined =>
  first([
    ["limit", field(settings, "limit"), pacingLimit],
    ["window", field(settings, "window"), durationRule(reading)],
    ["margin", field(settings, "margin"), durationRule(reading, { zero: true })],
    ["hold", field(settings, "hold"), (value) => oneOf(value, ["learned", "safe"])]
  ])

/**
 * The first refusal of a creation quota's settings given: `perMinute` and `perDay`, at most the API's.
 *
 * @since 0.1.0
 * @category options
 */
export const quota = (settings: unknown): Refusal | undefined =>
  first([
    ["perMinute", field(settings, "perMinute"), (value) => creations("minute", value)],
    ["perDay", field(settings, "perDay"), (value) => creations("day", value)]
  ])

/** How many of the store's timeouts a lease lasts at the least ({@link store}). */
const leaseTimeouts = 3

/**
 * A lease too short for its renewals: a permit is renewed every third of its lease, and a renewal may
 * take the store's timeout to answer (a failed one is tried again at the next third), so a shorter
 * lease lets a permit lapse while its request is in flight, and another process takes it.
 */
const lease = (given: unknown, options: unknown, reading: Reading): string | undefined => {
  const millis = reading.millis(given)
  const timeout = reading.millis(field(options, "timeout")) ?? RedisStoreOptions.defaults.timeoutMillis
  const least = leaseTimeouts * timeout
  return millis === undefined || millis >= least ?
    undefined :
    `must be at least ${leaseTimeouts} times the store's timeout (${least} ms with a timeout of ${timeout} ms: ` +
    `a permit is renewed every third of its lease, and a renewal may take the timeout), not ${millis} ms`
}

/**
 * The first refusal of a Redis store's options (`RedisStore.Options`): the `url`, which it must have
 * (a text or a `Redacted` one, never shown), then `prefix`, `timeout` and `onUnavailable` given; and,
 * for the store of the pacing's permits, `lease` (at least three times the timeout) and `interactiveShare`.
 *
 * @since 0.1.0
 * @category options
 */
export const store = (options: unknown, reading: Reading): Refusal | undefined => {
  const refused = objectRule(options)
  if (refused !== undefined) return { option: "options", reason: refused }
  const given = field(options, "url")
  const text = reading.secret(given)?.text ?? given
  return first([
    ["url", text ?? null, redisUrl],
    ["prefix", field(options, "prefix"), prefix],
    ["timeout", field(options, "timeout"), durationRule(reading)],
    ["onUnavailable", field(options, "onUnavailable"), (value) => oneOf(value, ["fail", "fallback"])],
    ["lease", field(options, "lease"), (value) => durationRule(reading)(value) ?? lease(value, options, reading)],
    ["interactiveShare", field(options, "interactiveShare"), share]
  ])
}
