/**
 * No token ever leaves the client except in the `Authorization` header or the `api_key` body field:
 * against the reference server in process, with every demo token in both auth modes and calls that
 * succeed or fail in every way (4, 7, 8, 9, 101, a dropped connection, a timeout, bad parameters, the
 * creation quota), the captured logs, spans, error messages (`String`, `message`, JSON, the line's
 * rendering of the cause), request URLs and the server's request log never contain a token.
 * (`Security.ts` checks where the token goes against a scripted server.)
 */
import * as Demo from "@community-api/core/DemoData"
import type { Call, Outcome } from "../src/Driver.js"
import { assert, scenario, suite } from "../src/Scenario.js"

const secrets = [...Object.values(Demo.tokens), "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]
const faulty: ReadonlyArray<string> = [Demo.tokens.owner, Demo.tokens.users, secrets.at(-1)!]
const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }

/** Everything an outcome shows: its value, or its cause rendered and its error as text. */
const describeOutcome = (outcome: Outcome): Array<string> => {
  if (outcome._tag === "Success") return [JSON.stringify(outcome.value) ?? ""]
  assert.ok(outcome.cause !== undefined && outcome.cause !== "", "the line renders every cause")
  const texts = [outcome.cause]
  if (outcome._tag === "Failure") {
    const error = outcome.error
    texts.push(String(error), String(error.message), JSON.stringify(error) ?? "", `${error as object}`)
  }
  return texts
}

const leaks = (written: ReadonlyArray<string>) => written.filter((w) => secrets.some((secret) => w.includes(secret)))

export default suite("client secrets", [
  scenario("A1 A2 A4 A6 X1 no token in logs, spans, error messages, request URLs or the server's log", async (line) => {
    const world = await line.reference({ observe: true })
    const { server } = world
    const written: Array<string> = []
    let calls = 0
    const run = async (call: Call) => {
      await world.adjust(120_000)
      const outcome = await call
      written.push(...describeOutcome(outcome))
      calls++
      return outcome
    }
    const tags = new Set<string>()
    for (const secret of secrets) {
      for (const auth of ["header", "body"] as const) {
        const client = await world.client({
          token: secret,
          auth,
          timeout: 2_000,
          onCreationLimit: "fail"
        })
        const attempts: Array<readonly [faults: Record<string, unknown> | undefined, call: () => Call]> = [
          [undefined, () => client.call("users/me")],
          [undefined, () => client.call("bots/getById", { bot_id: Demo.otherCommunityBotId })],
          [undefined, () => client.call("groups/getEmployees", main)],
          [undefined, () => client.call("vars/create", { ...main, title: "Секрет", name: `s${secret.length}${auth}` })],
          [undefined, () => client.callRaw("funnels/get", { ...main, api_key: secret })],
          // Bad parameters: refused before sending.
          [undefined, () => client.call("bots/getById", { bot_id: "not-an-id" })]
        ]
        // Faults, with the tokens that get past authentication and one that does not.
        const faulted: typeof attempts = !faulty.includes(secret) ? [] : [
          [{ keyServiceUnavailable: { next: 10 } }, () => client.call("users/me")],
          [
            { internalError: { next: 1 } },
            () => client.call("bots/addUser", { bot_id: Demo.activeBotId, uid: Demo.subscriberUid })
          ],
          [{ dropConnection: { next: 1 } }, () => client.call("vars/create", { ...main, title: "t", name: "n" })],
          [{ latency: { fixed: 3000 } }, () => client.call("users/me")],
          [{ latency: { fixed: 3000 } }, () => client.call("lists/create", { ...main, name: "x" })]
        ]
        for (const [faults, call] of [...attempts, ...faulted]) {
          if (faults !== undefined) await server.setFaults(faults)
          const outcome = await run(call())
          await server.clearFaults()
          if (outcome._tag === "Failure") tags.add(outcome.error._tag)
        }
      }
    }
    // The creation quota used up (one user, 20 a minute), with a token in the configuration.
    const quota = await world.client({ token: Demo.tokens.users, onCreationLimit: "fail" })
    for (let i = 0; i < 21; i++) {
      written.push(...describeOutcome(await quota.call("lists/create", { ...main, name: `quota ${i}` })))
    }
    // A configuration error never shows the token it was given.
    const config = await world.clientFromEnv({ COMMUNITY_API_TOKEN: Demo.tokens.owner })
    assert.notEqual(config._tag, "Success")
    written.push(...describeOutcome(config))

    const { logs, serverLog, spans, urls } = world.observed
    written.push(
      ...logs,
      ...spans.flatMap((span) => [
        `span ${span.name} ${JSON.stringify(Object.entries(span.attributes).map(([k, v]) => [k, String(v)]))} ${
          JSON.stringify(span.events)
        }`,
        span.failure ?? ""
      ]),
      ...urls.map((url) => `url ${url}`),
      ...serverLog.map((entry) => `request-log ${entry}`)
    )
    assert.ok(calls > secrets.length * 10)
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
    ) assert.ok(tags.has(tag), tag)
    assert.ok(written.some((w) => w.includes("CreationQuotaExceeded")))
    assert.ok(written.filter((w) => w.startsWith("url ")).length > secrets.length * 10)
    assert.ok(written.filter((w) => w.startsWith("span CommunityApiClient.")).length > secrets.length * 10)
    // The platform's HTTP spans (named `http.client POST` on Effect 3, `POST` on Effect 4).
    const http = spans.filter((s) =>
      !s.name.startsWith("CommunityApiClient.") && s.attributes["http.request.method"] === "POST"
    )
    assert.ok(http.length > secrets.length * 10)
    assert.ok(written.filter((w) => w.startsWith("request-log")).length > secrets.length * 10)
    // The capture sees headers: the platform's span shows the Authorization header, redacted.
    assert.ok(written.some((w) => w.includes("[\"http.request.header.authorization\",\"<redacted>\"]")))
    assert.deepEqual(leaks(written), [])
  }, 60_000)
])
