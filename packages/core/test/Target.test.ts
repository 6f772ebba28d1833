/**
 * Where a program's calls go, as both Effect lines read it from the environment: a real API with a
 * token, the embedded sandbox without a base URL, blanks taken for unset.
 */
import { describe, expect, it } from "vitest"
import * as Target from "../src/Target.js"

/** The target `values` choose; the test fails on MissingToken. */
const targetOf = (values: Target.Values<string>): Target.Target<string> => {
  const choice = Target.choose(values)
  if (choice._tag === "MissingToken") throw new Error("MissingToken")
  return choice
}

describe("Target", () => {
  it("A1 a base URL and a token choose a real API, without trailing slashes, with the Redis URL", () => {
    const values = { baseUrl: "https://host/external-api/v2//", token: "t", redisUrl: "redis://h" }
    const remote = Target.choose(values)
    expect(remote).toEqual({
      _tag: "Remote",
      baseUrl: "https://host/external-api/v2",
      token: "t",
      redisUrl: "redis://h"
    })
    expect(Target.limitersOf(remote as Exclude<typeof remote, { _tag: "MissingToken" }>)).toBe("redis")
    const alone = Target.choose({ ...values, redisUrl: undefined })
    expect(Target.limitersOf(alone as Exclude<typeof alone, { _tag: "MissingToken" }>)).toBe("memory")
  })

  it("A1 no base URL chooses the embedded sandbox, which ignores the Redis URL", () => {
    const embedded = targetOf({ baseUrl: undefined, token: undefined, redisUrl: "redis://h" })
    expect(embedded).toEqual({ _tag: "Embedded", token: undefined })
    expect(Target.limitersOf(embedded)).toBe("memory")
    expect(Target.choose({ baseUrl: undefined, token: "t", redisUrl: undefined })).toEqual({
      _tag: "Embedded",
      token: "t"
    })
  })

  it("A4 a base URL without a token is refused, naming both variables", () => {
    expect(Target.choose({ baseUrl: "https://host/v2", token: undefined, redisUrl: undefined }))
      .toEqual({ _tag: "MissingToken" })
    expect(Target.missingToken).toBe(
      "COMMUNITY_API_BASE_URL is set but COMMUNITY_API_TOKEN is not: set both, or neither for the embedded sandbox"
    )
  })

  it("a value is trimmed, and a blank one is unset", () => {
    expect([" a\n", "  ", "", undefined].map(Target.valueOf)).toEqual(["a", undefined, undefined, undefined])
  })

  it("A1 a target kept in a line's form, its optional secrets wrapped, reads back the same", () => {
    const box = (secret: string | undefined) => ({ secret })
    const remote = Target.choose({ baseUrl: "https://api.test/v2/", token: "t", redisUrl: undefined })
    if (remote._tag !== "Remote") throw new Error("a real API was chosen")
    const kept = Target.keep(remote, box)
    expect(kept).toEqual({
      _tag: "Remote",
      baseUrl: "https://api.test/v2",
      token: "t",
      redisUrl: { secret: undefined }
    })
    expect(Target.unkeep(kept, (box) => box.secret)).toEqual(remote)
    expect(Target.keep({ _tag: "Embedded", token: "d" }, box)).toEqual({ _tag: "Embedded", token: { secret: "d" } })
    const shared = Target.keep({ ...remote, redisUrl: "redis://r" }, box)
    expect(Target.limitersOf(Target.unkeep(shared, (box) => box.secret))).toBe("redis")
  })
  it("A1 A4 a line's settings, its optional values in its own form, choose the target it keeps", () => {
    const some = <A>(value: A) => ({ value })
    const none = { value: undefined }
    const optional = {
      text: (box: { readonly value: string | undefined }) => box.value,
      secret: (box: { readonly value: string | undefined }) => box.value,
      wrap: (secret: string | undefined) => ({ value: secret })
    }
    expect(Target.fromSettings({ baseUrl: some("https://api.test/v2/"), token: some("t"), redisUrl: none }, optional))
      .toEqual({ _tag: "Remote", baseUrl: "https://api.test/v2", token: "t", redisUrl: none })
    expect(Target.fromSettings({ baseUrl: none, token: some("d"), redisUrl: some("redis://r") }, optional))
      .toEqual({ _tag: "Embedded", token: some("d") })
    expect(Target.fromSettings({ baseUrl: some("https://api.test/v2"), token: none, redisUrl: none }, optional))
      .toEqual({ _tag: "MissingToken" })
  })
})
