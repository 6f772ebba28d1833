/**
 * What every error class of the API holds, and how it says itself.
 */
import { Schema } from "effect"

/** The fields beside the code: the server's text and the operation that failed. */
export const fields = {
  /** The Russian text the server sent. */
  text: Schema.String,
  /** The operation that failed, as `section/method`. */
  operation: Schema.String
}

/** `bots/get failed with error 8: …`. */
export const describe = (self: { readonly operation: string; readonly code: number; readonly text: string }) =>
  `${self.operation} failed with error ${self.code}: ${self.text}`
