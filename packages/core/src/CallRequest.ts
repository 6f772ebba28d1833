/**
 * The request of one call and the words of its failures, as both Effect lines' clients send it: the
 * path below the base URL, the JSON body (with the token as `api_key` in body mode, A2; in header mode
 * it goes in the `Authorization` header, A1), the statuses that carry no envelope (only 200 does, C4;
 * a redirect is never followed), how much of a refused answer is drained, and the reason of a failure
 * of the transport (a failed connection read from its cause, `TransportCause`). The lines'
 * `HttpClient` carries it out.
 *
 * @since 0.1.0
 */
import * as TransportCause from "./TransportCause.js"

/**
 * The URL of the operation at `path`, relative to the base URL.
 *
 * @since 0.1.0
 * @category utils
 */
export const urlOf = (path: string): string => `/${path}`

/**
 * Whether the token goes in the body (`auth: "body"`, A2) rather than in the `Authorization` header.
 *
 * @since 0.1.0
 * @category utils
 */
export const tokenInBody = (auth: "header" | "body" | undefined): boolean => auth === "body"

/**
 * The JSON body of a request with the encoded parameters `params` (anything but an object sends no
 * field), and the token as `api_key` when it goes in the body.
 *
 * @since 0.1.0
 * @category utils
 */
export const bodyOf = (params: unknown, apiKey: string | undefined): Record<string, unknown> => {
  const fields = typeof params === "object" && params !== null && !Array.isArray(params)
    ? params as Record<string, unknown>
    : {}
  return apiKey === undefined ? fields : { ...fields, api_key: apiKey }
}

/**
 * The only status whose answer carries an envelope (C4).
 *
 * @since 0.1.0
 * @category guards
 */
export const isAccepted = (status: number): boolean => status === 200

/**
 * A redirect (3xx) is never followed: the request would carry the token to wherever it points.
 *
 * @since 0.1.0
 * @category guards
 */
export const isRedirect = (status: number): boolean => status >= 300 && status < 400

/**
 * The reason of a failure for an answer of another status than 200.
 *
 * @since 0.1.0
 * @category utils
 */
export const statusReason = (status: number): string =>
  isRedirect(status) ? `redirect not followed: HTTP status ${status}` : `HTTP status ${status}`

/**
 * How much of a refused answer's body is read so that its connection can be reused; past it, reading
 * stops, which closes the connection.
 *
 * @since 0.1.0
 * @category constants
 */
export const drainedBytes = 64 * 1024

/**
 * The words of a cause, after a colon, or nothing when it is not an `Error`.
 *
 * @since 0.1.0
 * @category utils
 */
export const causeText = (cause: unknown): string => cause instanceof Error ? `: ${cause.message}` : ""

/**
 * The reason of a failure of the transport: the platform's reason and description (which name the
 * URL, never the token) and the cause (the socket's error).
 *
 * @since 0.1.0
 * @category utils
 */
export const transportReason = (reason: string, description: string | undefined, cause: unknown): string =>
  `${reason}${description === undefined ? "" : `: ${description}`}${causeText(cause)}`

/**
 * What a `TransportError` carries of a failure of the transport: its reason, and for a failed connection
 * the code, host and port read from the cause (`TransportCause`).
 *
 * @since 0.1.0
 * @category models
 */
export interface TransportFailure {
  readonly reason: string
  readonly code?: string
  readonly host?: string
  readonly port?: number
}

/**
 * The platforms' reason of a request that never got an answer: Effect 3's `RequestError` reason
 * `Transport`, Effect 4's `TransportError`. Any other (an invalid URL, a body that could not be
 * encoded) is no failed connection.
 *
 * @since 0.1.0
 * @category constants
 */
export const connectionReasons: ReadonlyArray<string> = ["Transport", "TransportError"]

/**
 * The failure of a request the platform could not send, `platformReason` and `description` its words,
 * `cause` its cause and `url` the request's: a failed connection is read from its cause (its code, the
 * host and port and a plain phrase; of the URL only the host and port); any other keeps the
 * platform's words ({@link transportReason}). Fields that are unknown are left out.
 *
 * @since 0.1.0
 * @category utils
 */
export const transportFailure = (
  platformReason: string,
  description: string | undefined,
  cause: unknown,
  url: string
): TransportFailure => {
  if (!connectionReasons.includes(platformReason)) {
    return { reason: transportReason(platformReason, description, cause) }
  }
  const read = TransportCause.read(cause, url)
  return {
    reason: read.reason,
    ...(read.code === undefined ? {} : { code: read.code }),
    ...(read.host === undefined ? {} : { host: read.host }),
    ...(read.port === undefined ? {} : { port: read.port })
  }
}

/**
 * The reason of a body the platform failed to read, though no bound or break stopped it.
 *
 * @since 0.1.0
 * @category constants
 */
export const unreadableBody = "the body could not be read"
