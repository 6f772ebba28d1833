/**
 * The key of a user from a token is the one the Effect 3 line has always derived (Effect's string
 * hash), so that processes of either line, old and new, meet under the same keys; a key a caller gives
 * is refused when empty or blank, by the rule both lines' clients apply when they are made.
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

  it("L1 a user key given by a caller: empty or whitespace only is refused, saying why; any other text is kept as is", () => {
    expect(UserKey.problem("")).toMatch(/^it is empty, .*hash tag \{userKey\}: \{\} is none.*Redis Cluster/)
    for (const blank of [" ", "\t", " \n ", "\u00a0", "\u3000"]) {
      expect(UserKey.problem(blank), JSON.stringify(blank)).toMatch(/^it is whitespace only, which names no user/)
    }
    for (const key of ["a", " a ", "bot-7", "{x}", "a}b", "ключ", "token:abc:def", UserKey.ofToken("")]) {
      expect(UserKey.problem(key), JSON.stringify(key)).toBeUndefined()
    }
    // Every refusal says how to do without a key.
    for (const key of ["", " "]) expect(UserKey.problem(key)).toContain("leave userKey unset")
  })
})
