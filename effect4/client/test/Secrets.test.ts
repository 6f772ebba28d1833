/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * No token ever leaves the client except in the `Authorization` header or the `api_key` body field:
 * against this line's reference server in process, with every demo token in both auth modes and calls
 * that succeed or fail in every way (4, 7, 8, 9, 101, a dropped connection, a timeout, bad parameters,
 * the creation quota), the captured logs, spans, error messages (`String`, `message`, JSON,
 * `Cause.pretty`), request URLs and the server's request log never contain a token.
 * (`Security.test.ts` checks where the token goes against a fake server.)
 */
import * as Demo from "@community-api/core/DemoData"
import { Ids } from "@community-api/effect4-schema"
import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import {
  Cause,
  ConfigProvider,
  Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Logger,
  Option,
  Redacted,
  References,
  Schema
} from "effect"
import { HttpClient, UrlParams } from "effect/http"
import { TestClock } from "effect/testing"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as Retry from "../src/Retry.js"
import * as RecordingTracer from "./support/RecordingTracer.js"

const BotId = Schema.decodeSync(Ids.BotId)
const Uid = Schema.decodeSync(Ids.Uid)
const secrets = [...Object.values(Demo.tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]
const faulty: ReadonlyArray<string> = [Demo.tokens.owner, Demo.tokens.users, secrets.at(-1)!]
const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}

/** A cause as text: its rendering, and each error's stack with the causes it carries. */
const causeText = (cause: Cause.Cause<unknown>): string =>
  [Cause.pretty(cause), ...Cause.prettyErrors(cause, { includeCauseInStack: true }).map((e) => String(e.stack))]
    .join("\n")

/** Logs, spans, request URLs and the server's request log, as text. */
const capture = () => {
  const written: Array<string> = []
  const logger = Logger.make(({ cause, fiber, logLevel, message }) => {
    written.push(
      `log ${logLevel} ${JSON.stringify(message)} ${JSON.stringify(fiber.getRef(References.CurrentLogAnnotations))}`,
      causeText(cause)
    )
  })
  const tracing = RecordingTracer.make((span, exit) => {
    written.push(
      `span ${span.name} ${JSON.stringify([...span.attributes].map(([k, v]) => [k, String(v)]))} ${
        JSON.stringify(span.events)
      }`,
      Exit.isFailure(exit) ? causeText(exit.cause) : ""
    )
  })
  const server = ReferenceServer.layerTest({
    onRequest: (entry) => written.push(`request-log ${JSON.stringify(entry)}`)
  })
  // Every request URL the client sends, with its query parameters.
  const tapUrls = Effect.updateService(
    HttpClient.HttpClient,
    HttpClient.tapRequest((request) =>
      Effect.sync(() => {
        written.push(`url ${request.url}?${UrlParams.toString(request.urlParams)}`)
      })
    )
  )
  const layer = Layer.mergeAll(
    server,
    Pacing.layer(),
    CreationQuota.layer(),
    Logger.layer([logger]),
    Layer.succeed(References.MinimumLogLevel, "All"),
    tracing.layer,
    // Every header on the platform's spans (off by default on this line), so a token in one would show.
    Layer.succeed(HttpClient.TracerHeaderFilter, () => true)
  )
  return { written, layer, tapUrls }
}

/** Everything a failure shows, and the failure's cause when run with `Effect.exit`. */
const describeFailure = (exit: Exit.Exit<unknown, unknown>): Array<string> => {
  if (Exit.isSuccess(exit)) return [JSON.stringify(exit.value) ?? ""]
  const texts = [causeText(exit.cause)]
  const failure = Cause.findErrorOption(exit.cause)
  if (Option.isSome(failure)) {
    const error = failure.value as { message?: unknown }
    texts.push(String(error), String(error.message), JSON.stringify(error) ?? "", `${error as object}`)
  }
  return texts
}

const leaks = (written: ReadonlyArray<string>) => written.filter((w) => secrets.some((secret) => w.includes(secret)))

describe("client secrets", () => {
  it.effect("A1 A2 A4 A6 X1 no token in logs, spans, error messages, request URLs or the server's log", () => {
    const { layer, tapUrls, written } = capture()
    return Effect.gen(function*() {
      const server = yield* ReferenceServer.ReferenceServer
      let calls = 0
      const run = (effect: Effect.Effect<unknown, unknown>) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.forkChild(Effect.exit(effect))
          yield* TestClock.adjust(Duration.minutes(2))
          const exit = yield* Fiber.join(fiber)
          written.push(...describeFailure(exit))
          calls++
          return exit
        })
      const tags = new Set<string>()
      for (const secret of secrets) {
        for (const auth of ["header", "body"] as const) {
          const client = yield* CommunityApiClient.make({
            baseUrl: ReferenceServer.inProcessBaseUrl,
            token: Redacted.make(secret),
            auth,
            timeout: Duration.seconds(2),
            retry: { schedule: Retry.defaultSchedule, limitRetries: 1 },
            onCreationLimit: "fail"
          })
          const attempts = [
            client.users.me(),
            client.bots.getById({ bot_id: BotId(Demo.otherCommunityBotId) }),
            client.groups.getEmployees(main),
            client.vars.create({ ...main, title: "Секрет", name: `s${secret.length}${auth}` }),
            client.call("funnels/get", { ...main, api_key: secret }),
            // Bad parameters: refused before sending.
            client.bots.getById({ bot_id: "not-an-id" as never })
          ]
          // Faults, with the tokens that get past authentication and one that does not.
          const faulted = !faulty.includes(secret) ? [] : [
            Effect.andThen(server.setFaults({ keyServiceUnavailable: { next: 10 } }), client.users.me()),
            Effect.andThen(
              server.setFaults({ internalError: { next: 1 } }),
              client.bots.addUser({ bot_id: BotId(Demo.activeBotId), uid: Uid(Demo.subscriberUid) })
            ),
            Effect.andThen(
              server.setFaults({ dropConnection: { next: 1 } }),
              client.vars.create({ ...main, title: "t", name: "n" })
            ),
            Effect.andThen(server.setFaults({ latency: { fixed: 3000 } }), client.users.me()),
            Effect.andThen(server.setFaults({ latency: { fixed: 3000 } }), client.lists.create({ ...main, name: "x" }))
          ]
          for (const call of [...attempts, ...faulted]) {
            const exit = yield* run(call)
            yield* server.clearFaults
            if (Exit.isFailure(exit)) {
              const failure = Cause.findErrorOption(exit.cause)
              if (Option.isSome(failure)) tags.add((failure.value as { _tag: string })._tag)
            }
          }
        }
      }
      // The creation quota used up (one user, 20 a minute), with a token in the configuration.
      const quota = yield* CommunityApiClient.make({
        baseUrl: ReferenceServer.inProcessBaseUrl,
        token: Redacted.make(Demo.tokens.users),
        onCreationLimit: "fail"
      })
      for (let i = 0; i < 21; i++) {
        written.push(...describeFailure(yield* Effect.exit(quota.lists.create({ ...main, name: `quota ${i}` }))))
      }
      // A configuration error never shows the token it was given.
      const config = yield* Effect.exit(
        Layer.build(CommunityApiClient.layerConfig()).pipe(
          Effect.scoped,
          Effect.provideService(
            ConfigProvider.ConfigProvider,
            ConfigProvider.fromEnv({ env: { COMMUNITY_API_TOKEN: Demo.tokens.owner } })
          )
        )
      )
      written.push(...describeFailure(config))
      expect(Exit.isFailure(config)).toBe(true)

      expect(calls).toBeGreaterThan(secrets.length * 10)
      // Every kind of failure was met, so every kind of message was looked at.
      for (
        const tag of [
          "InvalidTokenError",
          "InvalidParameterError",
          "AccessDeniedError",
          "KeyServiceUnavailableError",
          "OutcomeUnknownError",
          "TimeoutError",
          "RequestEncodeError",
          "ActionFailedError"
        ]
      ) expect(tags).toContain(tag)
      expect(written.some((w) => w.includes("CreationQuotaExceeded"))).toBe(true)
      expect(written.filter((w) => w.startsWith("url ")).length).toBeGreaterThan(secrets.length * 10)
      expect(written.filter((w) => w.startsWith("span CommunityApiClient.")).length).toBeGreaterThan(
        secrets.length * 10
      )
      // This line's HTTP client names its spans by the method (the Effect 3 line's, `http.client POST`).
      expect(written.filter((w) => w.startsWith("span POST")).length).toBeGreaterThan(secrets.length * 10)
      expect(written.filter((w) => w.startsWith("request-log")).length).toBeGreaterThan(secrets.length * 10)
      // The capture sees headers: the platform's span shows the Authorization header, redacted.
      expect(written.some((w) => w.includes("[\"http.request.header.authorization\",\"<redacted>\"]"))).toBe(true)
      expect(leaks(written)).toEqual([])
    }).pipe(tapUrls, Effect.provide(layer))
  }, 60_000)
})
