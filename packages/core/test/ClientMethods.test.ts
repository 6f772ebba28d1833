/**
 * A client's methods from the contract (`ClientMethods`): the tables per section, the operation of a
 * call by path, a page's position.
 */
import { describe, expect, it } from "vitest"
import * as ClientMethods from "../src/ClientMethods.js"
import * as ErrorCodes from "../src/ErrorCodes.js"
import * as Operations from "../src/Operations.js"

describe("ClientMethods", () => {
  it("X1 a method per operation of each section, in the contract's order; none where `f` gives none", () => {
    const inSection = (name: Operations.SectionName) => Object.values(Operations.sections[name])
    const table = ClientMethods.bySection(Operations.sectionNames, inSection, (op) => op.path)
    expect(Object.keys(table)).toEqual(Operations.sectionNames)
    expect(table.bots?.enable).toBe("bots/enable")
    const lists = ClientMethods.bySection(Operations.sectionNames, inSection, (op) => op.pageable ? op.path : undefined)
    expect(Object.values(lists).flatMap(Object.values)).toEqual(
      Operations.all.filter((op) => op.pageable).map((op) => op.path)
    )
  })

  it("X1 C12 the client's tables: every operation runs with its parameters ({} when none), every list streams", () => {
    const inSection = (name: Operations.SectionName) => Object.values(Operations.sections[name])
    const { sections, streams } = ClientMethods.methodTables(Operations.sectionNames, inSection, {
      execute: (op, params) => ["execute", op.path, params],
      stream: (op, params) => ["stream", op.path, params],
      isPageable: (op) => op.pageable
    })
    expect(sections.bots?.enable?.({ bot_id: "b" })).toEqual(["execute", "bots/enable", { bot_id: "b" }])
    expect(sections.bots?.enable?.()).toEqual(["execute", "bots/enable", {}])
    const list = Operations.all.find((op) => op.pageable)
    expect(streams[list?.section ?? ""]?.[list?.method ?? ""]?.()).toEqual(["stream", list?.path, {}])
    expect(Object.values(streams).flatMap(Object.keys).length).toBe(Operations.all.filter((op) => op.pageable).length)
  })

  it("E17 a call by path reads the contract's operation, or an undocumented one of the path's segments", () => {
    const known = Operations.all[0]
    expect(ClientMethods.byPath(known?.path ?? "", known)).toBe(known)
    expect(ClientMethods.byPath("secret/thing", undefined)).toEqual({
      section: "secret",
      method: "thing",
      path: "secret/thing",
      errorCodes: ErrorCodes.errorCodes,
      roleGroup: "none",
      creation: false,
      safeToRepeat: false,
      reads: false,
      item: undefined,
      documented: false,
      rule: "E17",
      summary: "called by path"
    })
    expect(ClientMethods.byPath("nothing", undefined)).toMatchObject({ section: "nothing", method: "" })
    // A call by path reads its answer with the caller's schema, and always expects one.
    expect(ClientMethods.calledByPath("secret/thing", new Map<string, never>(), "any", "decoder")).toMatchObject({
      path: "secret/thing",
      safeToRepeat: false,
      payload: "any",
      success: "decoder",
      hasResponse: true
    })
  })

  it("C12 C13 a page asks for the most records from offset 0 unless told", () => {
    expect(ClientMethods.pageParams({ a: 1 }, {})).toEqual({ a: 1, count: 500, offset: 0 })
    expect(ClientMethods.pageParams({ a: 1 }, { count: 10, offset: 20 })).toEqual({ a: 1, count: 10, offset: 20 })
  })

  it("X1 C12 C13 a client: its tables, execute, a page at a position (the most from 0 unless told), a stream of pages, the line's others", () => {
    const inSection = (name: Operations.SectionName) => Object.values(Operations.sections[name])
    const client = ClientMethods.client(
      { sectionNames: Operations.sectionNames, inSection, isPageable: (op) => op.pageable },
      {
        execute: (op, params) => ["execute", op.path, params] as const,
        // A stream of two pages: what the line's paginate would ask for.
        paginate: (fetch) => [fetch({}), fetch({ offset: 500, count: 500 })]
      },
      { call: "the line's call" }
    )
    expect(client.execute(Operations.sections.bots.enable, { bot_id: "b" })).toEqual([
      "execute",
      "bots/enable",
      { bot_id: "b" }
    ])
    expect(client.page(Operations.sections.bots.get, { active: 1 })).toEqual([
      "execute",
      "bots/get",
      { active: 1, count: 500, offset: 0 }
    ])
    expect(client.page(Operations.sections.bots.get, {}, { offset: 20 })[2]).toEqual({ count: 500, offset: 20 })
    expect(client.stream(Operations.sections.bots.get, { active: 1 })).toEqual([
      ["execute", "bots/get", { active: 1, count: 500, offset: 0 }],
      ["execute", "bots/get", { active: 1, count: 500, offset: 500 }]
    ])
    expect(client.streams.bots?.get?.()).toEqual(client.stream(Operations.sections.bots.get, {}))
    const sections = client as unknown as Record<string, Record<string, () => unknown>>
    expect(sections.bots?.enable?.()).toEqual(["execute", "bots/enable", {}])
    expect(client.call).toBe("the line's call")
  })

  it("X1 a client with a call by path: execute with the operation's payload, a call with the caller's schemas or ones that take anything, the contract's flags of a known path", () => {
    const enable = { section: "bots", method: "enable", path: "bots/enable", payload: "enable's payload" }
    const byPath = new Map([[enable.path, enable]])
    const client = ClientMethods.withCall(
      { sectionNames: ["bots"], inSection: () => [enable], isPageable: () => false, byPath },
      {
        run: (op, params, payload) => ({ op, params, payload }),
        paginate: (fetch) => [fetch({})],
        anyPayload: "any payload",
        anySuccess: "any success"
      },
      { budget: "the line's budget" }
    )
    expect(client.execute(enable, { bot_id: "b" })).toEqual({
      op: enable,
      params: { bot_id: "b" },
      payload: enable.payload
    })
    const known = client.call("bots/enable", { bot_id: "b" }, { payload: "mine" })
    expect(known).toMatchObject({ op: { path: "bots/enable", success: "any success" }, payload: "mine" })
    const unknown = client.call("secret/thing")
    expect(unknown.op).toMatchObject({
      path: "secret/thing",
      safeToRepeat: false,
      payload: "any payload",
      success: "any success"
    })
    expect(unknown.payload).toBeUndefined()
    expect(client.call("secret/thing", {}, { success: "decoder" }).op).toMatchObject({ success: "decoder" })
    expect(client.budget).toBe("the line's budget")
  })
})
