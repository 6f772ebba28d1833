/**
 * Where the token goes (A1, A2), the shape of every request (C1), what spans carry, and that no error
 * message carries the token, against a scripted server; `layerConfig` reads the environment.
 */
import { assert, drop, error, failed, json, me, ok, scenario, succeeded, suite } from "../src/Scenario.js"

const secret = "thp_security-secret-token-0123456789"
const baseUrl = "http://fake.local/external-api/v2"

const allText = (value: unknown): string =>
  JSON.stringify(value, (_, v) => (v instanceof Map ? [...v] : typeof v === "bigint" ? String(v) : v))

/** A URL as received, resolved against the server's origin: the same on both lines. */
const full = (url: string) => new URL(url, baseUrl).href

export default suite("Security", [
  scenario("A1 the token goes in the Authorization header by default, never in the URL or the body", async (line) => {
    const world = await line.scripted(() => ok(me))
    const client = await world.client({ baseUrl, token: secret })
    await succeeded(client.call("users/me"))
    const [request] = world.received
    assert.equal(request!.authorization, `Bearer ${secret}`)
    assert.ok(!request!.url.includes(secret))
    assert.deepEqual(request!.body, {})
  }),

  scenario("A2 in body mode the token goes as api_key in the JSON body, never in the query string", async (line) => {
    const world = await line.scripted(() => ok(me))
    const client = await world.client({ baseUrl, token: secret, auth: "body" })
    await succeeded(client.call("users/me"))
    const [request] = world.received
    assert.equal(request!.authorization, undefined)
    assert.equal(full(request!.url), `${baseUrl}/users/me`)
    assert.deepEqual(request!.body, { api_key: secret })
  }),

  scenario("C1 every operation is a POST to {base_url}/{section}/{method}, parameters in a JSON body", async (line) => {
    const world = await line.scripted(() => ok({ items: [], total: 0 }))
    const client = await world.client({ baseUrl: `${baseUrl}/`, token: secret })
    await succeeded(client.call("vars/list", { group_id: 5, channel: "TG" }))
    assert.equal(full(world.received[0]!.url), `${baseUrl}/vars/list`)
    assert.deepEqual(world.received[0]!.body, { group_id: 5, channel: "TG" })
  }),

  scenario(
    "A1 A2 spans are named by section and method, carry group, channel and attempt, and never the token",
    async (line) => {
      const world = await line.scripted((_, i) => i === 0 ? error(9) : ok({ items: [], total: 0 }), { observe: true })
      const client = await world.client({ baseUrl, token: secret })
      const call = client.call("bots/get", { group_id: 5, channel: "VK" })
      await world.adjust(5_000)
      await succeeded(call)
      const { spans } = world.observed
      const span = spans.find((s) => s.name === "CommunityApiClient.bots.get")
      assert.ok(span !== undefined)
      assert.equal(span.attributes["community_api.operation"], "bots/get")
      assert.equal(span.attributes["community_api.group_id"], 5)
      assert.equal(span.attributes["community_api.channel"], "VK")
      assert.equal(span.attributes["community_api.attempt"], 2)
      assert.ok(spans.length > 1)
      assert.ok(spans.some((s) => "http.request.header.authorization" in s.attributes))
      assert.ok(!allText(spans.map((s) => ({ name: s.name, attributes: s.attributes }))).includes(secret))
    }
  ),

  scenario("A4 error messages never contain the token, in either mode", async (line) => {
    const world = await line.scripted((_, i) =>
      i % 3 === 0 ? error(4, "Неверный токен") : i % 3 === 1 ? json({ bad: true }) : drop("dropped")
    )
    for (const auth of ["header", "body"] as const) {
      const client = await world.client({ baseUrl, token: secret, auth })
      const errors = [
        await failed(client.call("users/me")),
        await failed(client.call("users/me")),
        await failed(client.call("bots/addUser", { bot_id: "0123456789abcdef01234567", uid: 1 }))
      ]
      assert.deepEqual(errors.map((e) => e._tag), ["InvalidTokenError", "ResponseDecodeError", "OutcomeUnknownError"])
      for (const error of errors) {
        assert.ok(!error.message.includes(secret))
        assert.ok(!allText(error).includes(secret))
        assert.ok(!String(error).includes(secret))
      }
    }
  }),

  scenario("A1 layerConfig reads COMMUNITY_API_BASE_URL and COMMUNITY_API_TOKEN through Config", async (line) => {
    const world = await line.scripted(() => ok(me))
    const client = await succeeded(
      world.clientFromEnv({ COMMUNITY_API_BASE_URL: baseUrl, COMMUNITY_API_TOKEN: "thp_from_env" })
    )
    assert.deepEqual(await succeeded(client.call("users/me")), me)
    assert.equal(world.received[0]!.authorization, "Bearer thp_from_env")
  }),

  scenario(
    "A1 layerConfig fails with a ConfigError when the base URL is missing (no guessed default)",
    async (line) => {
      const world = await line.scripted(() => ok(me))
      const error = await failed(world.clientFromEnv({ COMMUNITY_API_TOKEN: "thp_x" }))
      assert.ok(String(error).includes("COMMUNITY_API_BASE_URL"), String(error))
    }
  )
])
