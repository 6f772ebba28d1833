/**
 * Snapshots on a real port: `GET /_sandbox/state` answers the world in the fixture's format, with the
 * fixture's own tokens; `PUT /_sandbox/state` loads one, which `/_sandbox/reset` then goes back to. One
 * that does not decode is refused whole with one line naming the first bad path, and the world stays
 * as it was. Both behind the control token.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as Fixture from "../src/Fixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const control = { authorization: `Bearer ${ReferenceServer.demoControlToken}` }
const main = DemoFixture.mainCommunity
const owner = DemoFixture.tokens.owner

const state = (portNumber: number, headers: Record<string, string> = control) =>
  send(portNumber, { path: "/_sandbox/state", method: "GET", headers })

const load = (portNumber: number, body: string, headers: Record<string, string> = control) =>
  send(portNumber, {
    path: "/_sandbox/state",
    method: "PUT",
    headers: { ...headers, "content-type": "application/json" },
    body
  })

const variables = (portNumber: number) =>
  Effect.map(
    send(portNumber, {
      path: "/external-api/v2/vars/list",
      headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
      body: JSON.stringify({ ...main, count: 100 })
    }),
    (answer) => okOf(answer).items.map((item: { name: string }) => item.name)
  )

const served = Effect.provide(ReferenceServer.layerServe({ port: 0 }))

describe("snapshots of the world", () => {
  it.live("GET answers the world in the fixture's format, with its tokens; PUT loads one, and reset returns to it", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const initial = okOf(yield* state(portNumber))
      expect(initial).toEqual(Fixture.encode(DemoFixture.demoFixture))
      expect(initial.tokens.map((t: { token: string }) => t.token)).toContain(owner)

      okOf(
        yield* send(portNumber, {
          path: "/external-api/v2/vars/create",
          headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
          body: JSON.stringify({ ...main, title: "Сохранённая", name: "saved" })
        })
      )
      const saved = okOf(yield* state(portNumber))
      expect(yield* variables(portNumber)).toContain("saved")
      // What the sandbox's --fixture reads: it decodes, and encodes back the same.
      expect(Fixture.encode(Effect.runSync(Fixture.decode(saved)))).toEqual(saved)

      expect((yield* send(portNumber, { path: "/_sandbox/reset", headers: control })).body).toEqual({ status: "ok" })
      expect(yield* variables(portNumber)).not.toContain("saved")

      expect((yield* load(portNumber, JSON.stringify(saved))).body).toEqual({ status: "ok" })
      expect(yield* variables(portNumber)).toContain("saved")
      expect(okOf(yield* state(portNumber))).toEqual(saved)
      expect((yield* send(portNumber, { path: "/_sandbox/reset", headers: control })).body).toEqual({ status: "ok" })
      expect(yield* variables(portNumber)).toContain("saved")
    }).pipe(served))

  it.live("a snapshot that does not decode is refused whole with one line naming the first bad path", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const before = okOf(yield* state(portNumber))
      const broken = (change: (world: any) => void) => {
        const world = structuredClone(before)
        change(world)
        return JSON.stringify(world)
      }
      const refusals: Array<[string, string]> = [
        [broken((w) => (w.bots[1].group_id = 1)), "state: bots[1].group_id: no community VK:1"],
        [broken((w) => (w.users[0].user_id = "one")), "state: users[0].user_id: expected number, actual \"one\""],
        [
          broken((w) => (w.colour = "red")),
          "state: colour is unexpected, expected: \"users\" | \"tokens\" | \"communities\" | \"employees\" | " +
          "\"subscribers\" | \"bots\" | \"botSubscribers\" | \"mailings\" | \"lists\" | \"variables\" | " +
          "\"communityVariables\" | \"landings\""
        ],
        ["{\"users\": [", "state: not JSON: Unexpected end of JSON input"],
        ["", "state: send the world as JSON, in the fixture's format (GET /_sandbox/state answers one)"]
      ]
      for (const [body, text] of refusals) {
        const refused = errorOf(yield* load(portNumber, body))
        expect(refused.code).toBe(7)
        expect(refused.text.split("\n")).toHaveLength(1)
        expect(refused.text).toBe(text)
      }
      expect(errorOf(yield* send(portNumber, { path: "/_sandbox/state?x=1", method: "GET", headers: control })))
        .toEqual({
          code: 7,
          text: "state: \"x\" is unexpected; it takes no parameters"
        })
      expect(okOf(yield* state(portNumber))).toEqual(before)
    }).pipe(served))

  it.live("without the control token the state is neither read nor replaced", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const before = okOf(yield* state(portNumber))
      for (const headers of [{}, { authorization: `Bearer ${owner}` }]) {
        expect(errorOf(yield* state(portNumber, headers)).code).toBe(4)
        expect(errorOf(yield* load(portNumber, JSON.stringify({}), headers)).code).toBe(4)
      }
      expect(okOf(yield* state(portNumber))).toEqual(before)
    }).pipe(served))
})
