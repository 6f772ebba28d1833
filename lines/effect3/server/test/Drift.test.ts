/**
 * A drifted world on a real port: the answers of the operations a declared drift names are altered as
 * it says (a field renamed, an undeclared error code), in the sandbox's own world and in each tenant;
 * the answers of the other operations are as the contract says.
 */
import type * as Drift from "@community-api/core/Drift"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const owner = { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" }
const main = DemoFixture.mainCommunity

const drift: Drift.Drift = [
  { _tag: "Rename", operation: "lists/get", at: "response.items[].name", to: "title" },
  { _tag: "ErrorCode", operation: "landings/get", code: 42 }
]

const call = (portNumber: number, prefix: string, path: string, body: unknown) =>
  send(portNumber, { path: `${prefix}/external-api/v2/${path}`, headers: owner, body: JSON.stringify(body) })

describe("a drifted world", () => {
  it.live("the named operations answer as the drift says, in the sandbox's world and in a tenant; the others as before", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      for (const prefix of ["", "/_tenants/drifted"]) {
        const lists = okOf(yield* call(portNumber, prefix, "lists/get", main)) as {
          readonly items: ReadonlyArray<Record<string, unknown>>
        }
        expect(lists.items.length).toBeGreaterThan(0)
        for (const list of lists.items) {
          expect(list).not.toHaveProperty("name")
          expect(typeof list.title).toBe("string")
        }
        expect(errorOf(yield* call(portNumber, prefix, "landings/get", main)).code).toBe(42)
        const mailings = okOf(yield* call(portNumber, prefix, "mailings/get", main)) as { readonly total: number }
        expect(typeof mailings.total).toBe("number")
      }
    }).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0, drift }))))
})
