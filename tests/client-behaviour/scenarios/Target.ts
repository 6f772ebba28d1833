/**
 * The target of the environment (`Target.resolve`): its names, the base URL without trailing
 * slashes, blanks taken for unset, a base URL without a token refused; and the client of a target
 * (`Target.layer`): the embedded sandbox loaded only for an embedded target, with its token unless one
 * is given, and the `HttpClient` of the context for a real API. In process, over the reference server.
 */
import { tokens, userIds } from "@community-api/core/DemoData"
import type { Client } from "../src/Driver.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"

/** Who a client is: the `user_id` of `users/me` of its token. */
const userOf = async (client: Client) => (await succeeded(client.call("users/me")) as { user_id: number }).user_id

export default suite("Target", [
  scenario("reads the environment's three names", async (line) => {
    assert.deepEqual(line.constants.targetVariables, [
      "COMMUNITY_API_BASE_URL",
      "COMMUNITY_API_TOKEN",
      "COMMUNITY_API_REDIS_URL"
    ])
  }),

  scenario(
    "A1 a base URL and a token make a real API's target, without trailing slashes, secrets redacted",
    async (line) => {
      const target = await succeeded(line.resolveTarget({
        COMMUNITY_API_BASE_URL: " https://host/external-api/v2// ",
        COMMUNITY_API_TOKEN: "thp_secret\n",
        COMMUNITY_API_REDIS_URL: "redis://:password@127.0.0.1:6379"
      }))
      assert.equal(target._tag, "Remote")
      if (target._tag !== "Remote") return
      assert.equal(target.baseUrl, "https://host/external-api/v2")
      assert.equal(target.token, "thp_secret")
      assert.equal(target.redisUrl, "redis://:password@127.0.0.1:6379")
      assert.doesNotMatch(target.shown, /thp_secret|password/)
    }
  ),

  scenario(
    "a real API's target without a Redis URL, or with a blank one, keeps the process's own limiters",
    async (line) => {
      for (const redis of [{}, { COMMUNITY_API_REDIS_URL: "  " }]) {
        const target = await succeeded(line.resolveTarget({
          COMMUNITY_API_BASE_URL: "https://host/v2",
          COMMUNITY_API_TOKEN: "t",
          ...redis
        }))
        assert.equal(target._tag === "Remote" && target.redisUrl, undefined)
      }
    }
  ),

  scenario(
    "with no base URL (or a blank one) the target is the embedded sandbox, with the token when one is given",
    async (line) => {
      assert.deepEqual(await line.resolveTarget({}), { _tag: "Success", value: { _tag: "Embedded", token: undefined } })
      const given = await succeeded(line.resolveTarget({
        COMMUNITY_API_BASE_URL: " ",
        COMMUNITY_API_TOKEN: "thp_x",
        COMMUNITY_API_REDIS_URL: "redis://127.0.0.1:1"
      }))
      assert.deepEqual(given, { _tag: "Embedded", token: "thp_x" })
    }
  ),

  scenario("A4 a base URL without a token is MissingToken, which names both variables", async (line) => {
    for (const token of [{}, { COMMUNITY_API_TOKEN: " " }]) {
      const failure = await failed(
        line.resolveTarget({ COMMUNITY_API_BASE_URL: "https://host/external-api/v2", ...token })
      )
      assert.equal(failure._tag, "MissingToken")
      assert.equal(
        failure.message,
        "COMMUNITY_API_BASE_URL is set but COMMUNITY_API_TOKEN is not: set both, or neither for the embedded sandbox"
      )
    }
  }),

  scenario("A1 an embedded target runs on the sandbox, as the demo owner unless a token is given", async (line) => {
    assert.equal(await userOf(await line.targetClient({ _tag: "Embedded" })), userIds.owner)
    const other = await line.targetClient({ _tag: "Embedded", token: tokens.otherOwner })
    assert.equal(await userOf(other), userIds.otherOwner)
  }),

  scenario("a real API's target goes through the context's HttpClient and never loads the sandbox", async (line) => {
    assert.equal(await userOf(await line.targetClient({ _tag: "Remote", token: tokens.owner })), userIds.owner)
  }),

  scenario("the client options apply to either target", async (line) => {
    // A body over the bound fails the call: `users/me` is bigger than 10 bytes.
    const client = await line.targetClient({ _tag: "Embedded" }, { maxResponseBytes: 10 })
    assert.equal((await failed(client.call("users/me")))._tag, "ResponseDecodeError")
  })
])
