/**
 * The options of a client, as both Effect lines take them, each documented once: a line's
 * `ClientConfig` is this interface over its own forms of a secret (`Redacted`), a duration and a retry
 * policy.
 *
 * @since 0.1.0
 */
import type * as Lane from "./Lane.js"

/**
 * How the token is sent: the `Authorization: Bearer` header (default), or `api_key` in the
 * JSON body for tools that cannot set headers. Never in the query string.
 *
 * @since 0.1.0
 * @category models
 */
export type AuthMode = "header" | "body"

/**
 * The configuration of a client: `Secret` is how a line keeps the token, `Duration` the durations it
 * takes, `Policy` its retry policy.
 *
 * @since 0.1.0
 * @category options
 */
export interface Config<Secret, Duration, Policy> {
  /** `{base_url}`, ending with the version segment, e.g. `https://host/external-api/v2` (required). */
  readonly baseUrl: string | URL
  /** The personal or application token; kept `Redacted`, never logged, traced or put in a URL. */
  readonly token: Secret
  /** Where the token goes; default `"header"`. */
  readonly auth?: AuthMode | undefined
  /** Time allowed for one attempt (send and read the answer); default 30 s. */
  readonly timeout?: Duration | undefined
  /**
   * Time allowed for a whole call: every attempt, retry, pacing wait and creation quota wait; default
   * 120 s (one wait for the next creation minute plus a whole attempt). Past it the call fails with
   * `TimeoutError { scope: "call" }`, or `OutcomeUnknownError` when an attempt of an operation that is
   * not safe to repeat was in flight.
   */
  readonly deadline?: Duration | undefined
  /**
   * The largest body the client reads, in bytes; default 16 MiB. A longer body fails the call with
   * `ResponseDecodeError { limitBytes }`: the client stops reading at the bound and closes the
   * connection, never holding more.
   */
  readonly maxResponseBytes?: number | undefined
  /** The retry policy; default `Retry.defaultPolicy`. */
  readonly retry?: Partial<Policy> | undefined
  /**
   * The key of the user for the shared limiters. The limits count per user, all tokens together, and
   * tokens of one user cannot be told apart client-side: give every client of one user the same key.
   * Default: a hash of the token, the same in both lines. An empty key, or one of whitespace only, is
   * refused when the client is made (`ClientError.InvalidConfig`; the Redis keys carry the user key as
   * a hash tag, and `{}` is none); any other text is used as it is, not trimmed.
   */
  readonly userKey?: string | undefined
  /** When the creation minute is used up: wait for the next minute (default) or fail at once. */
  readonly onCreationLimit?: "wait" | "fail" | undefined
  /**
   * The lane of this client's calls that are not marked (`Lane.withLane`): `"interactive"` (the
   * default) or `"batch"`, for a client that serves jobs. Interactive calls of a user take its next
   * free permit ahead of its waiting batch calls.
   */
  readonly lane?: Lane.Lane | undefined
}
