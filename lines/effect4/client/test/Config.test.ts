/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * What the client refuses of its configuration, when it is made (`make`, `layer`, `layerConfig`
 * alike) rather than at its first call: a `userKey` that is empty or whitespace only (the core's rule,
 * `UserKey.problem`), and a `baseUrl` that is no URL or carries credentials (`BaseUrl.read`). Each
 * dies with `ClientError.InvalidConfig`, naming the option and why, before anything is sent; a base URL
 * read from the environment by `configFromEnv` fails as a typed `ConfigError` instead.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Config, ConfigProvider, Effect, Exit, Layer, Option } from "effect"
import * as ClientError from "../src/ClientError.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as FakeServer from "./support/FakeServer.js"

const me = { user_id: 7, auth: "token", client_id: "app" }

/** The defect an exit died with, or the exit itself when it did not die. */
const defectOf = <A, E>(exit: Exit.Exit<A, E>): unknown =>
  Exit.isFailure(exit) && Cause.hasDies(exit.cause) ? Cause.squash(exit.cause) : exit

const refusal = (defect: unknown, option: string) => {
  expect(defect).toBeInstanceOf(ClientError.InvalidConfig)
  const error = defect as ClientError.InvalidConfig
  expect(error._tag).toBe("InvalidConfig")
  expect(error.option).toBe(option)
  expect(error.message).toContain(`the client's ${option} is refused: `)
  return error
}

describe("Config", () => {
  it.effect("L1 an empty or blank userKey is refused when the client is made, by make, layer and layerConfig alike, naming the option and why", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    const limiters = Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer())
    return Effect.gen(function*() {
      for (const userKey of ["", " ", "\t\n"]) {
        const why = userKey === "" ? "it is empty, " : "it is whitespace only, "
        const made = refusal(
          defectOf(yield* Effect.exit(CommunityApiClient.make(FakeServer.config({ userKey })))),
          "userKey"
        )
        expect(made.reason.startsWith(why), made.reason).toBe(true)
        expect(made.message).toContain("leave userKey unset")
        if (userKey === "") expect(made.message).toContain("{} is none")

        const layered = yield* Effect.exit(
          Layer.build(CommunityApiClient.layer(FakeServer.config({ userKey }))).pipe(Effect.scoped)
        )
        expect(refusal(defectOf(layered), "userKey").reason).toBe(made.reason)

        // From the environment: a program that maps a variable of its own to the option. Effect 4's
        // providers read an empty variable as missing unless told to keep it (`preserveEmptyStrings`):
        // then the program's Config fails first, a ConfigError naming the variable.
        const config = Config.map(
          Config.all([CommunityApiClient.configFromEnv, Config.String("APP_USER_KEY")]),
          ([client, key]) => ({ ...client, userKey: key })
        )
        for (const preserveEmptyStrings of [false, true]) {
          const fromEnv = yield* Effect.exit(
            Layer.build(CommunityApiClient.layerConfig(config)).pipe(
              Effect.scoped,
              Effect.provideService(
                ConfigProvider.ConfigProvider,
                ConfigProvider.fromEnv({
                  env: {
                    COMMUNITY_API_BASE_URL: FakeServer.baseUrl,
                    COMMUNITY_API_TOKEN: "thp_from_env",
                    APP_USER_KEY: userKey
                  },
                  preserveEmptyStrings
                })
              )
            )
          )
          if (userKey === "" && !preserveEmptyStrings) {
            const missing = Exit.isFailure(fromEnv) ? Cause.findErrorOption(fromEnv.cause) : Option.none()
            expect(Option.isSome(missing) && missing.value).toBeInstanceOf(Config.ConfigError)
            expect(String(Option.getOrUndefined(missing))).toContain("APP_USER_KEY")
          } else {
            expect(refusal(defectOf(fromEnv), "userKey").reason).toBe(made.reason)
          }
        }
      }
      // Refused before anything was sent.
      expect(fake.received).toEqual([])
    }).pipe(Effect.provide(limiters))
  })

  it.effect("L1 a userKey with any other text is the user's key as given, spaces around it kept", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const pacing = yield* Pacing.Pacing
      const client = yield* CommunityApiClient.make(FakeServer.config({ userKey: " alice " }))
      yield* client.users.me()
      expect((yield* pacing.budget(" alice ")).used).toBe(1)
      expect((yield* pacing.budget("alice")).used).toBe(0)
    }).pipe(Effect.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("a baseUrl that is no URL, or carries a query string or credentials, is refused with InvalidConfig naming it", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const cases = [
        ["not a url", "it is not an absolute URL (such as https://host/external-api/v2)"],
        [
          "https://u:p@host/external-api/v2",
          "it carries credentials: the token goes in COMMUNITY_API_TOKEN, never in a URL"
        ],
        ["https://host/external-api/v2?x=1", "it carries a query string"]
      ] as const
      for (const [baseUrl, reason] of cases) {
        const error = refusal(
          defectOf(yield* Effect.exit(CommunityApiClient.make(FakeServer.config({ baseUrl })))),
          "baseUrl"
        )
        expect(error.reason).toBe(reason)
        // The URL itself, and so its credentials, is not in the message.
        expect(error.message).not.toContain("u:p")
      }
      expect(fake.received).toEqual([])
    }).pipe(Effect.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer())))
  })

  it.effect("a COMMUNITY_API_BASE_URL the client would refuse fails layerConfig with a typed ConfigError naming it", () => {
    const fake = FakeServer.make(() => Effect.succeed(FakeServer.ok(me)))
    return Effect.gen(function*() {
      const exit = yield* Effect.exit(
        Layer.build(CommunityApiClient.layerConfig()).pipe(
          Effect.scoped,
          Effect.provideService(
            ConfigProvider.ConfigProvider,
            ConfigProvider.fromEnv({
              env: { COMMUNITY_API_BASE_URL: "https://u:p@host/external-api/v2", COMMUNITY_API_TOKEN: "thp_from_env" }
            })
          )
        )
      )
      // A failure, not a defect: the layer's ConfigError, which names the variable and why.
      const failure = Exit.isFailure(exit) ? Cause.findErrorOption(exit.cause) : Option.none()
      expect(Option.isSome(failure) && failure.value).toBeInstanceOf(Config.ConfigError)
      const message = String(Option.getOrUndefined(failure))
      expect(message).toContain("COMMUNITY_API_BASE_URL")
      expect(message).toContain("it carries credentials")
      expect(message).not.toContain("u:p")
      expect(fake.received).toEqual([])
    }).pipe(Effect.provide(Layer.mergeAll(fake.http, Pacing.layer(), CreationQuota.layer())))
  })
})
