/**
 * The sandbox's control routes (`/_sandbox/faults`, `/_sandbox/reset`): their credential, a token of
 * its own, sent as `Authorization: Bearer <token>`, compared in constant time (without it anyone who
 * reaches the port could slow every request down or wipe the data); and the one line that says what
 * is wrong with a body of `POST /_sandbox/faults`.
 *
 * @internal
 */
import type { ParseResult } from "effect"
import { Redacted } from "effect"
import { createHash, timingSafeEqual } from "node:crypto"
import * as Issues from "./issues.js"
import * as Texts from "./texts.js"

/**
 * The text of the error 7 for fault settings that do not decode: the first bad field and what it
 * takes (`faults: latency.fixed: expected a non-negative number, actual -1`), not Schema's tree.
 */
export const badFaults = (error: ParseResult.ParseError): string => `faults: ${Issues.describe(error)}`

/** The control token when none is given (public as `ReferenceServer.demoControlToken`). */
export const demoControlToken = "sandbox_control_demo_5e1b7c3a9d2f4068"

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest()

export class ControlToken {
  private readonly expected: Buffer

  constructor(token: Redacted.Redacted<string>) {
    this.expected = digest(Redacted.value(token))
  }

  /** `undefined` when `authorization` carries the control token, else the text of the error 4. */
  refusal(authorization: string | undefined): string | undefined {
    if (authorization === undefined) return Texts.controlTokenMissing
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    // Digests of equal length: the comparison takes the same time whatever was sent.
    return match !== null && timingSafeEqual(digest(match[1]!), this.expected) ? undefined : Texts.controlTokenInvalid
  }
}
