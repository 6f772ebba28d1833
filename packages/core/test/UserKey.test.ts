/**
 * The key of a user from a token is the one the Effect 3 line has always derived (Effect's string
 * hash), so that processes of either line, old and new, meet under the same keys.
 */
import { describe, expect, it } from "vitest"
import * as UserKey from "../src/UserKey.js"

describe("UserKey", () => {
  it("L1 L2 the key of a token, as Effect 3's Hash.string gave it, never the token", () => {
    // Figures printed by `Hash.string` of effect 3.22 for these tokens.
    expect(UserKey.ofToken("thp_owner_demo_token")).toBe("token:-40vyb5:-2dz2y9")
    expect(UserKey.ofToken("a")).toBe("token:3t1g:3t1g")
    expect(UserKey.ofToken("")).toBe("token:45h:45h")
    expect(UserKey.ofToken("токен")).toBe("token:-z48xh:-h4ou5x")
    expect(UserKey.ofToken("thp_owner_demo_token")).not.toContain("owner")
  })
})
