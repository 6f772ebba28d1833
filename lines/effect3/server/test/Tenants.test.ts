/**
 * Tenants on a real port: a request names its tenant with `X-Sandbox-Tenant` or the path prefix
 * `/_tenants/{name}`; each tenant is a world of its own (objects, counters, journal), made on first
 * use, bounded in number, dropped with `DELETE /_sandbox/tenants/{name}`; a request naming none reaches
 * the sandbox's own world.
 */
import * as CoreClock from "@community-api/core/Clock"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const control = { authorization: `Bearer ${ReferenceServer.demoControlToken}` }
const owner = { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" }
const main = DemoFixture.mainCommunity

/** Where a request goes: the sandbox's own world, a tenant by header, or a tenant by path prefix. */
type Where = { readonly header: string } | { readonly prefix: string } | "own"

const call = (
  portNumber: number,
  where: Where,
  path: string,
  body: unknown = {},
  headers: Record<string, string> = owner
) =>
  send(portNumber, {
    path: `${typeof where === "object" && "prefix" in where ? `/_tenants/${where.prefix}` : ""}${path}`,
    headers: typeof where === "object" && "header" in where
      ? { ...headers, "x-sandbox-tenant": where.header }
      : headers,
    body: JSON.stringify(body)
  })

const createVar = (portNumber: number, where: Where, name: string) =>
  call(portNumber, where, "/external-api/v2/vars/create", { ...main, title: "Tenant", name })

const variableNames = (portNumber: number, where: Where) =>
  Effect.map(
    call(portNumber, where, "/external-api/v2/vars/list", { ...main, count: 500 }),
    (answer) => (okOf(answer).items as ReadonlyArray<{ readonly name: string }>).map((v) => v.name)
  )

const serve = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.provide(ReferenceServer.layerServe({ port: 0, clock: CoreClock.manual(Date.UTC(2026, 2, 10, 12)) }))
  )

describe("tenants", () => {
  it.live("L2 two tenants, one by header and one by path prefix, see neither each other's objects nor counters", () =>
    serve(Effect.gen(function*() {
      const portNumber = yield* port
      const a = { header: "worker-a" } as const
      const b = { prefix: "worker-b" } as const
      okOf(yield* createVar(portNumber, a, "only_in_a"))
      okOf(yield* createVar(portNumber, b, "only_in_b"))
      expect(yield* variableNames(portNumber, a)).toContain("only_in_a")
      expect(yield* variableNames(portNumber, a)).not.toContain("only_in_b")
      expect(yield* variableNames(portNumber, b)).toContain("only_in_b")
      expect(yield* variableNames(portNumber, b)).not.toContain("only_in_a")
      expect(yield* variableNames(portNumber, "own")).not.toContain("only_in_a")
      expect(yield* variableNames(portNumber, "own")).not.toContain("only_in_b")
      // Tenant a uses up its creation minute (19 more after the first); b and the sandbox's own world do not feel it.
      for (let i = 1; i < 20; i++) okOf(yield* createVar(portNumber, a, `a_${i}`))
      expect(errorOf(yield* createVar(portNumber, a, "a_21")).code).toBe(5)
      okOf(yield* createVar(portNumber, b, "b_2"))
      okOf(yield* createVar(portNumber, "own", "own_1"))
      // Each tenant's journal holds its own requests only.
      const journal = okOf(
        yield* send(portNumber, { path: `/_tenants/${b.prefix}/_sandbox/requests`, method: "GET", headers: control })
      )
      const names = (journal.entries as ReadonlyArray<{ readonly params?: { readonly name?: string } }>)
        .flatMap((e) => e.params?.name === undefined ? [] : [e.params.name])
      expect(names).toEqual(["only_in_b", "b_2"])
    })))

  it.live("a tenant's world is the sandbox's fixture afresh, whatever the sandbox's own world has become", () =>
    serve(Effect.gen(function*() {
      const portNumber = yield* port
      okOf(yield* createVar(portNumber, "own", "made_before"))
      const fresh = yield* variableNames(portNumber, { header: "late" })
      expect(fresh).not.toContain("made_before")
      expect(fresh.length).toBe(
        DemoFixture.demoFixture.variables.filter((v) => v.group_id === main.group_id && v.channel === main.channel)
          .length
      )
    })))

  it.live("at most 64 tenants: one more is refused naming the bound and nothing is made; dropping one makes room", () =>
    serve(Effect.gen(function*() {
      const portNumber = yield* port
      for (let i = 0; i < 64; i++) okOf(yield* call(portNumber, { header: `t${i}` }, "/external-api/v2/users/me"))
      const refused = errorOf(yield* call(portNumber, { prefix: "one-more" }, "/external-api/v2/users/me"))
      expect(refused.code).toBe(6)
      expect(refused.text).toContain("64")
      const listed = okOf(yield* send(portNumber, { path: "/_sandbox/tenants", method: "GET", headers: control }))
      expect(listed.max).toBe(64)
      expect(listed.tenants).toHaveLength(64)
      expect(listed.tenants).not.toContain("one-more")
      okOf(yield* send(portNumber, { path: "/_sandbox/tenants/t0", method: "DELETE", headers: control }))
      okOf(yield* call(portNumber, { prefix: "one-more" }, "/external-api/v2/users/me"))
      expect(
        errorOf(yield* send(portNumber, { path: "/_sandbox/tenants/t0", method: "DELETE", headers: control })).code
      )
        .toBe(7)
    })))

  it.live("a tenant's name is letters, digits, - and _: another is refused with one line; the routes need the control token", () =>
    serve(Effect.gen(function*() {
      const portNumber = yield* port
      const bad = errorOf(yield* call(portNumber, { header: "no spaces" }, "/external-api/v2/users/me"))
      expect(bad.code).toBe(7)
      expect(bad.text).toContain("a tenant's name is 1 to 64 letters")
      expect(errorOf(yield* send(portNumber, { path: "/_sandbox/tenants", method: "GET", headers: owner })).code).toBe(
        4
      )
      const listed = okOf(yield* send(portNumber, { path: "/_sandbox/tenants", method: "GET", headers: control }))
      expect(listed.tenants).toEqual([])
    })))
})
