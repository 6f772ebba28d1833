/**
 * What an assistant should do after each kind of failure: one English sentence per error type, in one
 * table for every tool. The type demands a sentence for every error of the API and of the client. After
 * a limit (error 5, a used-up creation quota) the sentence says how long to wait, from the same
 * figures as the error's `window`, `resets_at` and `retry_after_ms`.
 *
 * @since 0.1.0
 */
import type { ClientError } from "@community-api/client/ClientError"
import { type ApiError, Limits } from "@community-api/schema"
import { DateTime, Predicate } from "effect"
import * as Credentials from "./Credentials.js"

/**
 * The tool's arguments do not fit the input schema; nothing was sent.
 *
 * @since 0.1.0
 */
export const invalidInputTag = "InvalidInput"

/**
 * A failure that is none of the typed ones (a bug).
 *
 * @since 0.1.0
 */
export const internalTag = "InternalError"

/**
 * Every error type a tool can answer with.
 *
 * @since 0.1.0
 */
export type Tag =
  | ApiError.ApiError["_tag"]
  | ApiError.UnexpectedApiError["_tag"]
  | ClientError["_tag"]
  | typeof invalidInputTag
  | typeof internalTag

/**
 * The advice for each error type.
 *
 * @since 0.1.0
 */
export const byTag: { readonly [T in Tag]: string } = {
  InvalidInput: "Fix the parameter named, as the tool's input schema describes it, and call the tool again.",
  RequestEncodeError: "Fix the parameter named, as the tool's input schema describes it, and call the tool again.",
  InvalidParameterError: "Check the parameters and that the object exists in this community (another community's " +
    "object is answered as missing); repeating the same call gives the same answer.",
  AccessDeniedError: "The token has no access to this community or section: use a community the token may reach, " +
    "or ask its owner for the role the tool's description names.",
  InvalidTokenError: `The token was refused (missing, expired, revoked or for another product): set a valid ` +
    `${Credentials.tokenVariable} and restart this server.`,
  RateLimitError: `The API's limit was hit (${Limits.requestsPerWindow} requests a second, or ` +
    `${Limits.creationsPerMinute} creations a minute): wait the time in retry_after_ms before calling again.`,
  CreationQuotaExceeded: "The creation quota is used up: create nothing more until resets_at, the time in " +
    "retry_after_ms from now.",
  ActionFailedError: "The API could not do it for the reason in its text: resolve that before trying again.",
  KeyServiceUnavailableError: "The API's key check is briefly unavailable and nothing was done: try again shortly.",
  InternalServerError: "The API failed internally: try again later, and after a change check first whether it " +
    "happened.",
  OutcomeUnknownError: "The action may or may not have happened: check (for example by listing) before repeating it.",
  TransportError: `The API could not be reached: check ${Credentials.baseUrlVariable} and the network, then try ` +
    "again.",
  LimiterUnavailable: "The store of the shared request limits (Redis) could not be reached, so nothing was sent: " +
    "check that the Redis server is up and reachable, then try again.",
  TimeoutError: "The API did not answer in time and nothing is known to have changed: try again later.",
  ResponseDecodeError: "The API answered something this server cannot read: repeating will not help; report it.",
  UnexpectedApiError: "The API answered with an error this operation does not document: read its text; repeating " +
    "will probably not help.",
  UnknownSectionError: `The API does not know this operation at this address: check that ` +
    `${Credentials.baseUrlVariable} ends with /v2.`,
  UnknownMethodError: `The API does not know this operation at this address: check that ` +
    `${Credentials.baseUrlVariable} ends with /v2.`,
  InternalError: "This server failed unexpectedly: try again, and report it if it repeats."
}

/**
 * The advice for an error type; a type of no table gets that of {@link internalTag}.
 *
 * @since 0.1.0
 */
export const of = (tag: string): string => Object.hasOwn(byTag, tag) ? byTag[tag as Tag] : byTag[internalTag]

/**
 * The window of a limit that refused a call: the request rate's second, the creation limit's
 * calendar minute or its day.
 *
 * @since 0.1.0
 */
export type Window = "second" | "minute" | "day"

/**
 * When an agent may call again after a limit refused it: the window, when it opens again (ISO 8601,
 * for a calendar window the client knows the end of) and how long that is from now.
 *
 * @since 0.1.0
 */
export interface Wait {
  readonly window: Window
  readonly resets_at?: string
  readonly retry_after_ms: number
}

/**
 * When a call failed, and whether its operation is a creation: what the wait after a limit depends on.
 *
 * @since 0.1.0
 */
export interface Moment {
  /** Now, in epoch milliseconds (the `Clock`'s). */
  readonly now: number
  /** Whether the operation counts against the creation limit. */
  readonly creation: boolean
}

/**
 * The wait after `error`, for a used-up creation quota (its window and reset) or an error 5: the rate
 * window for a read or a change; for a creation, which error 5 may refuse for the creation minute as
 * well, the end of the calendar minute. `undefined` for any other error.
 *
 * @since 0.1.0
 */
export const waitOf = (error: unknown, context: Moment): Wait | undefined => {
  const { creation, now } = context
  if (Predicate.isTagged(error, "CreationQuotaExceeded") && Predicate.hasProperty(error, "resetsAt")) {
    const resetsAt = DateTime.isDateTime(error.resetsAt) ? DateTime.toEpochMillis(error.resetsAt) : Number.NaN
    if (Number.isNaN(resetsAt)) return undefined
    return {
      window: Predicate.hasProperty(error, "window") && error.window === "day" ? "day" : "minute",
      resets_at: new Date(resetsAt).toISOString(),
      retry_after_ms: Math.max(0, resetsAt - now)
    }
  }
  if (Predicate.isTagged(error, "RateLimitError")) {
    return creation
      ? { window: "minute", retry_after_ms: Limits.nextMinute(now) - now }
      : { window: "second", retry_after_ms: Limits.rateWindowMillis }
  }
  return undefined
}

const unit = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`

/**
 * A wait in words, rounded up: seconds below two minutes, minutes below two hours, then hours and
 * minutes.
 *
 * @since 0.1.0
 */
export const duration = (millis: number): string => {
  const seconds = Math.max(1, Math.ceil(millis / 1_000))
  if (seconds < 120) return unit(seconds, "second")
  const minutes = Math.ceil(seconds / 60)
  if (minutes < 120) return unit(minutes, "minute")
  const hours = Math.floor(minutes / 60)
  return minutes % 60 === 0 ? unit(hours, "hour") : `${unit(hours, "hour")} ${unit(minutes % 60, "minute")}`
}

/**
 * The advice after a limit refused a call: how long to wait, in words.
 *
 * @since 0.1.0
 */
export const ofWait = (tag: string, wait: Wait): string => {
  const time = duration(wait.retry_after_ms)
  if (tag === "CreationQuotaExceeded") {
    const limit = wait.window === "day" ? `${Limits.creationsPerDay} a day` : `${Limits.creationsPerMinute} a minute`
    return `The creation quota (${limit}) is used up: create nothing more for ${time}, until ${
      wait.resets_at ?? "the window ends"
    }; other calls may go on.`
  }
  return wait.window === "second"
    ? `The API's limit of ${Limits.requestsPerWindow} requests a second was hit: wait ${time} before calling again.`
    : `The API's limit was hit (${Limits.requestsPerWindow} requests a second, or ${Limits.creationsPerMinute} ` +
      `creations a minute): wait ${time}, until the next minute, before creating again.`
}
