/**
 * Token validation (A1–A7) with its 60-second cache on the server's clock (A5): a token validated once
 * keeps working for up to 60 s after it is revoked or expires.
 *
 * @internal
 */
import { Either } from "effect"
import * as Fixture from "../Fixture.js"
import type { Caller } from "./context.js"
import type { Store } from "./store.js"
import * as Texts from "./texts.js"

/** How long a validation result is kept. */
export const cacheMillis = 60_000
const maxEntries = 10_000

interface Entry {
  readonly caller: Caller
  readonly at: number
}

/** The credential of a request: the header wins over `api_key` (A3). */
export const credentialOf = (
  authorization: string | undefined,
  apiKey: unknown
): string | undefined => {
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization)
    return match === null ? authorization : match[1]!
  }
  return typeof apiKey === "string" && apiKey !== "" ? apiKey : undefined
}

/** Validated tokens, kept for a minute. Only successes are kept. */
export class TokenCache {
  private readonly entries = new Map<string, Entry>()

  clear(): void {
    this.entries.clear()
  }

  /** The caller a credential names at `now`, or the text of error 4. */
  validate(store: Store, credential: string, now: number, version: "v1" | "v2"): Either.Either<Caller, string> {
    let entry = this.entries.get(credential)
    if (entry === undefined || now - entry.at >= cacheMillis) {
      this.entries.delete(credential)
      const token = store.tokens.get(credential)
      if (token === undefined) return Either.left(Texts.tokenInvalid)
      if (token.revoked) return Either.left(Texts.tokenRevoked)
      if (token.product !== "this") return Either.left(Texts.tokenOtherProduct)
      const validity = Fixture.validityMillis[token.validity]
      if (validity !== undefined && now >= token.issued_at * 1000 + validity) return Either.left(Texts.tokenExpired)
      entry = { caller: { user_id: token.user_id, kind: token.kind, client_id: token.client_id }, at: now }
      if (this.entries.size >= maxEntries) this.entries.delete(this.entries.keys().next().value!)
      this.entries.set(credential, entry)
    }
    // The older account key is refused by v2 whatever the cache says (A7).
    if (entry.caller.kind === "accountKey" && version === "v2") return Either.left(Texts.accountKeyInV2)
    return Either.right(entry.caller)
  }
}
