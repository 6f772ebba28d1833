/**
 * The one line written to standard error when a command fails: the operation, the error type, and for
 * an API error the server's code and its Russian text. It never contains the token: errors carry the
 * operation path and the server's text, never the request.
 *
 * @since 0.1.0
 */
import { Predicate } from "effect"

/**
 * The prefix of every line the command line writes about itself.
 *
 * @since 0.1.0
 */
export const prefix = "community-api:"

/**
 * The line for a failure.
 *
 * @since 0.1.0
 */
export const line = (error: unknown): string => describe(error).replace(/\s*\n\s*/g, " ")

const describe = (error: unknown): string => {
  if (!Predicate.hasProperty(error, "_tag")) return `${prefix} internal error: ${String(error)}`
  const tag = String(error._tag)
  if (tag === "UsageError" && Predicate.hasProperty(error, "reason")) {
    return `${prefix} usage error: ${String(error.reason)}`
  }
  const operation = Predicate.hasProperty(error, "operation") ? String(error.operation) : "command"
  if (Predicate.hasProperty(error, "code") && Predicate.hasProperty(error, "text")) {
    return `${prefix} ${operation} failed with ${tag}: error ${String(error.code)}: ${String(error.text)}`
  }
  const message = error instanceof Error ? error.message : ""
  const detail = message.startsWith(`${operation}: `) ? message.slice(operation.length + 2) : message
  return `${prefix} ${operation} failed with ${tag}${detail === "" ? "" : `: ${detail}`}`
}
