/**
 * What the client refuses of its configuration, when it is made (`make`, `layer`, `layerConfig`
 * alike) rather than at its first call: a `userKey` that is empty or whitespace only (the core's rule,
 * `UserKey.problem`), and a `baseUrl` that is no URL or carries credentials (`BaseUrl.read`). Each
 * dies with `ClientError.InvalidConfig`, naming the option and why, before anything is sent; a base URL
 * read from the environment by `configFromEnv` fails as a typed `ConfigError` instead.
 */
import type { Line, Outcome } from "../src/Driver.js"
import { assert, failed, me, ok, scenario, succeeded, suite } from "../src/Scenario.js"

const baseUrl = "http://fake.local/external-api/v2"

/** The line's `InvalidConfig` a making of the client died with, naming `option`. */
const refusal = (line: Line, outcome: Outcome, option: string) => {
  assert.equal(outcome._tag, "Defect", `the making ${outcome._tag}, where a refusal was due`)
  const error = (outcome as { readonly defect: { readonly [field: string]: unknown } }).defect
  assert.ok(line.isClientError(error, "InvalidConfig"), String(error))
  assert.equal(error["_tag"], "InvalidConfig")
  assert.equal(error["option"], option)
  assert.ok(String(error["message"]).includes(`the client's ${option} is refused: `), String(error["message"]))
  return error as { readonly reason: string; readonly message: string }
}

export default suite("Config", [
  scenario(
    "L1 an empty or blank userKey is refused when the client is made, by make, layer and layerConfig alike, naming the option and why",
    async (line) => {
      const world = await line.scripted(() => ok(me))
      for (const userKey of ["", " ", "\t\n"]) {
        const why = userKey === "" ? "it is empty, " : "it is whitespace only, "
        const made = refusal(line, await world.tryClient({ userKey }, "make"), "userKey")
        assert.ok(made.reason.startsWith(why), made.reason)
        assert.ok(made.message.includes("leave userKey unset"))
        if (userKey === "") assert.ok(made.message.includes("{} is none"))

        const layered = refusal(line, await world.tryClient({ userKey }, "layer"), "userKey")
        assert.equal(layered.reason, made.reason)

        // From the environment: a program that maps a variable of its own to the option. A provider that
        // reads an empty variable as missing (Effect 4's unless told to keep it) fails the program's
        // Config first, a ConfigError naming the variable; one that keeps it gives "" to the client.
        for (const empty of ["missing", "kept"] as const) {
          const fromEnv = world.clientFromEnv(
            { COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: "thp_from_env", APP_USER_KEY: userKey },
            { userKeyVariable: "APP_USER_KEY", empty }
          )
          if (userKey === "" && empty === "missing") {
            const missing = await failed(fromEnv)
            assert.notEqual(line.configError(missing), undefined, String(missing))
            assert.ok(String(missing).includes("APP_USER_KEY"), String(missing))
          } else {
            assert.equal(refusal(line, await fromEnv, "userKey").reason, made.reason)
          }
        }
      }
      // Refused before anything was sent.
      assert.deepEqual(world.received, [])
    }
  ),

  scenario("L1 a userKey with any other text is the user's key as given, spaces around it kept", async (line) => {
    const world = await line.scripted(() => ok(me))
    const client = await world.client({ userKey: " alice " })
    await succeeded(client.call("users/me"))
    assert.equal((await client.budget()).requests.used, 1)
    assert.equal((await (await world.client({ userKey: "alice" })).budget()).requests.used, 0)
  }),

  scenario(
    "a baseUrl that is no URL, or carries a query string or credentials, is refused with InvalidConfig naming it",
    async (line) => {
      const world = await line.scripted(() => ok(me))
      const cases = [
        ["not a url", "it is not an absolute URL (such as https://host/external-api/v2)"],
        [
          "https://u:p@host/external-api/v2",
          "it carries credentials: the token goes in COMMUNITY_API_TOKEN, never in a URL"
        ],
        ["https://host/external-api/v2?x=1", "it carries a query string"]
      ] as const
      for (const [baseUrl, reason] of cases) {
        const error = refusal(line, await world.tryClient({ baseUrl }, "make"), "baseUrl")
        assert.equal(error.reason, reason)
        // The URL itself, and so its credentials, is not in the message.
        assert.ok(!error.message.includes("u:p"))
      }
      assert.deepEqual(world.received, [])
    }
  ),

  scenario(
    "a COMMUNITY_API_BASE_URL the client would refuse fails layerConfig with a typed ConfigError naming it",
    async (line) => {
      const world = await line.scripted(() => ok(me))
      const outcome = world.clientFromEnv({
        COMMUNITY_API_BASE_URL: "https://u:p@host/external-api/v2",
        COMMUNITY_API_TOKEN: "thp_from_env"
      })
      // A failure, not a defect: the layer's ConfigError, which names the variable and why.
      const failure = await failed(outcome)
      assert.equal(line.configError(failure)?.invalidData, true, String(failure))
      for (const message of [String((await outcome).cause), String(failure)]) {
        assert.ok(message.includes("COMMUNITY_API_BASE_URL"), message)
        assert.ok(message.includes("it carries credentials"), message)
        assert.ok(!message.includes("u:p"), message)
      }
      assert.deepEqual(world.received, [])
    }
  )
])
