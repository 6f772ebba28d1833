/**
 * A usage error the command line finds itself: a malformed `call`, a missing token, a value the
 * contract rejects. It ends the process with the usage exit code.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/**
 * @since 0.1.0
 */
export class UsageError extends Schema.TaggedError<UsageError>()("UsageError", {
  /** What is wrong, in one line; never contains a token. */
  reason: Schema.String
}) {
  override get message() {
    return this.reason
  }
}
