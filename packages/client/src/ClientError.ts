/**
 * Errors the client adds to those of the API: the request could not be sent or answered, the answer
 * could not be read, a creation quota is used up, or the outcome of an action is unknown. No message
 * ever contains the token: errors carry the operation path, never the request or its headers.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * The request did not reach the server or no answer came back (connection refused or dropped, DNS,
 * a non-200 status without an envelope). Retried only for operations safe to repeat.
 *
 * @since 0.1.0
 */
export class TransportError extends Schema.TaggedError<TransportError>()("TransportError", {
  /** The operation, as `section/method`. */
  operation: Schema.String,
  /** What went wrong, without the request's headers or body. */
  reason: Schema.String
}) {
  override get message() {
    return `${this.operation}: transport failed: ${this.reason}`
  }
}

/**
 * No answer within the request timeout. Retried only for operations safe to repeat.
 *
 * @since 0.1.0
 */
export class TimeoutError extends Schema.TaggedError<TimeoutError>()("TimeoutError", {
  operation: Schema.String,
  /** The timeout in milliseconds. */
  timeoutMillis: Schema.Number
}) {
  override get message() {
    return `${this.operation}: no answer within ${this.timeoutMillis} ms`
  }
}

/**
 * The parameters do not satisfy the operation's schema; nothing was sent.
 *
 * @since 0.1.0
 */
export class RequestEncodeError extends Schema.TaggedError<RequestEncodeError>()("RequestEncodeError", {
  operation: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.operation}: invalid parameters, nothing was sent: ${this.reason}`
  }
}

/**
 * The answer is not the envelope the contract describes for the operation. Never retried: the same
 * request would get the same answer.
 *
 * @since 0.1.0
 */
export class ResponseDecodeError extends Schema.TaggedError<ResponseDecodeError>()("ResponseDecodeError", {
  operation: Schema.String,
  reason: Schema.String
}) {
  override get message() {
    return `${this.operation}: unreadable answer: ${this.reason}`
  }
}

/**
 * The creation quota (L2) of this user is used up: 20 per calendar minute or 200 per day (the day
 * starts at 03:00 Moscow time). Nothing was sent; `resetsAt` tells when the window opens again.
 *
 * @since 0.1.0
 */
export class CreationQuotaExceeded extends Schema.TaggedError<CreationQuotaExceeded>()("CreationQuotaExceeded", {
  operation: Schema.String,
  window: Schema.Literal("minute", "day"),
  /** The start of the next window. */
  resetsAt: Schema.DateTimeUtcFromSelf
}) {
  override get message() {
    return `${this.operation}: the creation quota of the ${this.window} is used up; it resets at ${this.resetsAt.toJSON()}`
  }
}

/**
 * An operation that is not safe to repeat (a creation, `bots/addUser`) failed after it may have reached
 * the server: an internal error (101), a transport failure or a timeout. The action may or may not
 * have happened, so the client does not send it again; check before repeating it.
 *
 * @since 0.1.0
 */
export class OutcomeUnknownError extends Schema.TaggedError<OutcomeUnknownError>()("OutcomeUnknownError", {
  operation: Schema.String,
  /** What failed: `internal error 101`, `transport: …` or `timeout`. */
  reason: Schema.String
}) {
  override get message() {
    return `${this.operation}: the outcome is unknown (${this.reason}); the action may or may not have happened, ` +
      `so it was not sent again`
  }
}

/**
 * Every error the client adds to the API's own.
 *
 * @since 0.1.0
 */
export type ClientError =
  | TransportError
  | TimeoutError
  | RequestEncodeError
  | ResponseDecodeError
  | CreationQuotaExceeded
  | OutcomeUnknownError
