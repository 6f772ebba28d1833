/**
 * The target of the environment (`Target.resolve`): its names, the base URL without trailing
 * slashes, blanks taken for unset, a base URL without a token refused; and the client of a target
 * (`Target.layer`): the embedded sandbox loaded only for an embedded target, with its token unless one
 * is given, and the `HttpClient` of the context for a real API. In process, over the reference server.
 */
import { tokens, userIds } from "@community-api/core/DemoData"
import * as Embedded from "@community-api/effect4-server/Embedded"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Redacted, Result } from "effect"
import { HttpClient } from "effect/http"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Target from "../src/Target.js"

const withEnv = (env: Record<string, string>) =>
  Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))

const resolveIn = (env: Record<string, string>) => Effect.result(Target.resolve.pipe(withEnv(env)))

describe("Target.resolve", () => {
  it("reads the environment's three names", () => {
    expect([Target.baseUrlVariable, Target.tokenVariable, Target.redisUrlVariable]).toEqual([
      "COMMUNITY_API_BASE_URL",
      "COMMUNITY_API_TOKEN",
      "COMMUNITY_API_REDIS_URL"
    ])
  })

  it.effect("A1 a base URL and a token make a real API's target, without trailing slashes, secrets redacted", () =>
    Effect.gen(function*() {
      const target = yield* resolveIn({
        COMMUNITY_API_BASE_URL: " https://host/external-api/v2// ",
        COMMUNITY_API_TOKEN: "thp_secret\n",
        COMMUNITY_API_REDIS_URL: "redis://:password@127.0.0.1:6379"
      })
      expect(Result.isSuccess(target) && target.success._tag).toBe("Remote")
      if (Result.isFailure(target) || target.success._tag !== "Remote") return
      expect(target.success.baseUrl).toBe("https://host/external-api/v2")
      expect(Redacted.value(target.success.token)).toBe("thp_secret")
      expect(Option.map(target.success.redisUrl, Redacted.value)).toEqual(
        Option.some("redis://:password@127.0.0.1:6379")
      )
      expect(String(target.success.token) + String(target.success.redisUrl)).not.toMatch(/thp_secret|password/)
    }))

  it.effect("a real API's target without a Redis URL, or with a blank one, keeps the process's own limiters", () =>
    Effect.gen(function*() {
      for (const redis of [{}, { COMMUNITY_API_REDIS_URL: "  " }]) {
        const target = yield* resolveIn({
          COMMUNITY_API_BASE_URL: "https://host/v2",
          COMMUNITY_API_TOKEN: "t",
          ...redis
        })
        expect(Result.isSuccess(target) && target.success._tag === "Remote" && target.success.redisUrl).toEqual(
          Option.none()
        )
      }
    }))

  it.effect("with no base URL (or a blank one) the target is the embedded sandbox, with the token when one is given", () =>
    Effect.gen(function*() {
      expect(yield* resolveIn({})).toEqual(Result.succeed({ _tag: "Embedded", token: Option.none() }))
      const given = yield* resolveIn({
        COMMUNITY_API_BASE_URL: " ",
        COMMUNITY_API_TOKEN: "thp_x",
        COMMUNITY_API_REDIS_URL: "redis://127.0.0.1:1"
      })
      expect(Result.isSuccess(given) && given.success._tag).toBe("Embedded")
      if (Result.isSuccess(given) && given.success._tag === "Embedded") {
        expect(Option.map(given.success.token, Redacted.value)).toEqual(Option.some("thp_x"))
      }
    }))

  it.effect("A4 a base URL without a token is MissingToken, which names both variables", () =>
    Effect.gen(function*() {
      for (const token of [{}, { COMMUNITY_API_TOKEN: " " }]) {
        const result = yield* resolveIn({ COMMUNITY_API_BASE_URL: "https://host/external-api/v2", ...token })
        expect(Result.isFailure(result) && result.failure).toBeInstanceOf(Target.MissingToken)
        if (Result.isFailure(result)) {
          expect(result.failure.message).toBe(
            "COMMUNITY_API_BASE_URL is set but COMMUNITY_API_TOKEN is not: set both, or neither for the embedded sandbox"
          )
        }
      }
    }))
})

/** Who the client is: `users/me` of its token. */
const me = Effect.flatMap(Effect.service(CommunityApiClient.CommunityApiClient), (client) => client.users.me())

/** Fresh limiters, so that no test inherits another's requests. */
const limiters = Layer.merge(Pacing.layer(), CreationQuota.layer())

/** The context's `HttpClient` of an embedded target: never used, the sandbox brings its own. */
const unused = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make(() => Effect.die("the context's HttpClient was used"))
)

describe("Target.layer", () => {
  const options = { sandbox: Effect.succeed(Embedded) }

  it.effect("A1 an embedded target runs on the sandbox, as the demo owner unless a token is given", () =>
    Effect.gen(function*() {
      const owner = yield* me.pipe(
        Effect.provide(Target.layer({ _tag: "Embedded", token: Option.none() }, options)),
        Effect.provide(unused),
        Effect.provide(limiters)
      )
      expect(owner.user_id).toBe(userIds.owner)
      const other = yield* me.pipe(
        Effect.provide(
          Target.layer({ _tag: "Embedded", token: Option.some(Redacted.make(tokens.otherOwner)) }, options)
        ),
        Effect.provide(unused),
        Effect.provide(limiters)
      )
      expect(other.user_id).toBe(userIds.otherOwner)
    }))

  it.effect("a real API's target goes through the context's HttpClient and never loads the sandbox", () =>
    Effect.gen(function*() {
      const target: Target.Target = {
        _tag: "Remote",
        baseUrl: ReferenceServer.inProcessBaseUrl,
        token: Redacted.make(tokens.owner),
        redisUrl: Option.none()
      }
      const user = yield* me.pipe(
        Effect.provide(Target.layer(target, { sandbox: Effect.die("the sandbox was loaded") })),
        Effect.provide(ReferenceServer.layerTest()),
        Effect.provide(limiters)
      )
      expect(user.user_id).toBe(userIds.owner)
    }))

  it.effect("the client options apply to either target", () =>
    Effect.gen(function*() {
      // A body over the bound fails the call: `users/me` is bigger than 10 bytes.
      const error = yield* me.pipe(
        Effect.provide(Target.layer({ _tag: "Embedded", token: Option.none() }, {
          ...options,
          client: { maxResponseBytes: 10 }
        })),
        Effect.provide(unused),
        Effect.provide(limiters),
        Effect.flip
      )
      expect(error._tag).toBe("ResponseDecodeError")
    }))
})
