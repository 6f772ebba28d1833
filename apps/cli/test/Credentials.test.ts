import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Either, Option, Redacted } from "effect"
import * as Credentials from "../src/Credentials.js"

const withEnv = (env: Record<string, string>) =>
  Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))

describe("Credentials", () => {
  it.effect("A1 with no base URL the calls go to the embedded sandbox, with the token when one is given", () =>
    Effect.gen(function*() {
      const none = yield* Credentials.resolve({ tokenStdin: false }).pipe(withEnv({}))
      expect(none).toEqual({ _tag: "Embedded", token: Option.none() })
      const given = yield* Credentials.resolve({ tokenStdin: false }).pipe(withEnv({ COMMUNITY_API_TOKEN: "thp_x" }))
      expect(given._tag).toBe("Embedded")
      if (given._tag === "Embedded") expect(Option.map(given.token, Redacted.value)).toEqual(Option.some("thp_x"))
    }))

  it.effect("C1 a base URL and a token make a remote target; the token stays redacted", () =>
    Effect.gen(function*() {
      const target = yield* Credentials.resolve({ tokenStdin: false }).pipe(
        withEnv({ COMMUNITY_API_BASE_URL: "https://host/external-api/v2/", COMMUNITY_API_TOKEN: "thp_secret" })
      )
      expect(target._tag).toBe("Remote")
      if (target._tag === "Remote") {
        expect(target.baseUrl).toBe("https://host/external-api/v2")
        expect(String(target.token)).not.toContain("thp_secret")
        expect(Redacted.value(target.token)).toBe("thp_secret")
      }
    }))

  it.effect("A4 a base URL without a token is a usage error, before anything is sent", () =>
    Effect.gen(function*() {
      const result = yield* Credentials.resolve({ tokenStdin: false }).pipe(
        withEnv({ COMMUNITY_API_BASE_URL: "https://host/external-api/v2" }),
        Effect.either
      )
      expect(Either.isLeft(result) && result.left._tag).toBe("UsageError")
    }))
})
