/**
 * The client over a real loopback port: the line's reference server on a port of the system's choosing
 * (`Line.realPort`), each client over fetch and over undici, the token in the header and in the body.
 * The live clock: the server and the client run on real time, as over a real port they must; nothing
 * sleeps (the clients retry at once).
 */
import * as Demo from "@community-api/core/DemoData"
import type { Line, RealClientOptions } from "../src/Driver.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"

const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }

/** A world on a real port and a client of it over `http`, the token in the `auth`. */
const clientOf = async (line: Line, http: RealClientOptions["http"], auth: "header" | "body") => {
  const world = await line.realPort()
  // No delays: nothing in this suite may wait on the clock.
  const as = (token: string) => world.client({ http, auth, token, retry: { delays: [0, 0, 0] } })
  return { world, client: await as(Demo.tokens.owner), as }
}

const userOf = async (call: PromiseLike<unknown>) =>
  ((await succeeded(call as never)) as { readonly user_id: number }).user_id

export default suite(
  "Over a real port",
  (["fetch", "undici"] as const).flatMap((name) =>
    (["header", "body"] as const).flatMap((auth) => [
      scenario(`C1 C4 A1 A2 E1 users/me answers over ${name} with the token in the ${auth}`, async (line) => {
        const { client } = await clientOf(line, name, auth)
        assert.equal(await userOf(client.call("users/me")), Demo.userIds.owner)
      }),

      scenario(`E4 C12 bots/get streams 640 bots in two pages over ${name} (${auth})`, async (line) => {
        const { client } = await clientOf(line, name, auth)
        assert.equal((await succeeded(client.stream("bots/get", main))).length, Demo.mainBotCount)
      }),

      scenario(`E11 E10 vars/create then vars/list over ${name} (${auth})`, async (line) => {
        const { client } = await clientOf(line, name, auth)
        const created = await succeeded(
          client.call("vars/create", { ...main, title: "Проверка", name: `smoke_${name}_${auth}` })
        ) as { readonly id: string }
        const listed = await succeeded(client.call("vars/list", { ...main, count: 500 })) as {
          readonly items: ReadonlyArray<{ readonly id: string }>
        }
        assert.ok(listed.items.map((v) => v.id).includes(created.id))
      }),

      scenario(
        `E6 A4 X1 typed errors over ${name} (${auth}): 7 for a missing bot, 4 for a revoked token`,
        async (line) => {
          const { as, client } = await clientOf(line, name, auth)
          const missing = await failed(client.call("bots/enable", { bot_id: "f".repeat(24) }))
          assert.equal(missing._tag, "InvalidParameterError")
          const error = await failed((await as(Demo.tokens.revoked)).call("users/me"))
          assert.equal(error._tag, "InvalidTokenError")
          assert.ok(!error.message.includes(Demo.tokens.revoked))
        }
      ),

      scenario(`A6 X1 error 9 and a dropped connection are retried over ${name} (${auth})`, async (line) => {
        const { client, world } = await clientOf(line, name, auth)
        await world.server.setFaults({ keyServiceUnavailable: { next: 2 } })
        assert.equal(await userOf(client.call("users/me")), Demo.userIds.owner)
        await world.server.setFaults({ dropConnection: { next: 1, paths: ["users/me"] } })
        assert.equal(await userOf(client.call("users/me")), Demo.userIds.owner)
        await world.server.clearFaults()
      })
    ])
  )
)
