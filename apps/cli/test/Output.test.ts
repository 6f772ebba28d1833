import { Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import * as Output from "../src/Output.js"
import * as Progress from "../src/Progress.js"

describe("Output", () => {
  it("C12 prints the items of a page as an aligned table with numbers on the right", () => {
    const text = Output.human({
      items: [
        { id: "a", name: "First bot", active: 1, steps: [] },
        { id: "bb", name: "B", active: 10, steps: [{ id: "x" }] }
      ],
      total: 2
    })
    expect(text.split("\n")).toEqual([
      "id  name       active  steps",
      "a   First bot       1  []",
      "bb  B              10  [{\"id\":\"x\"}]"
    ])
  })

  it("R10 prints one record as key and value", () => {
    expect(Output.human({ user_id: 5, auth: "token", client_id: null })).toBe(
      "user_id    5\nauth       token\nclient_id"
    )
  })

  it("C12 a table shows the API's dates as ISO 8601 instants; JSON keeps the wire's unix seconds", () => {
    for (const op of [Operations.bots.get, Operations.lists.get]) {
      expect(Output.dates(op.success), op.path).toEqual(new Set(["create_at"]))
    }
    const dates = Output.dates(Operations.bots.get.success)
    const page = { items: [{ id: "a", create_at: 1709823600 }, { id: "b", create_at: 0 }], total: 2 }
    expect(Output.human(page, [], dates).split("\n")).toEqual([
      "id  create_at",
      "a   2024-03-07T15:00:00Z",
      "b   1970-01-01T00:00:00Z"
    ])
    expect(Output.human({ id: "a", create_at: 1709823600 }, [], dates)).toBe(
      "id         a\ncreate_at  2024-03-07T15:00:00Z"
    )
    expect(JSON.parse(Output.json(page))).toEqual(page)
    // A number that is not a date stays a number.
    expect(Output.human({ id: "a", create_at: 1709823600 })).toContain("1709823600")
  })

  it("C12 an empty page prints nothing, JSON keeps the page", () => {
    expect(Output.human({ items: [], total: 0 })).toBe("")
    expect(JSON.parse(Output.json({ items: [], total: 0 }))).toEqual({ items: [], total: 0 })
    expect(Output.ndjsonLine({ a: 1 })).toBe("{\"a\":1}")
  })

  it.effect("C12 the progress bar shows items so far of total and the rate, only on a terminal", () =>
    Effect.gen(function*() {
      expect(Progress.render(250, 1000, 500)).toBe("[######------------------] 250/1000 items  500/s")
      const written: Array<string> = []
      const pipe = yield* Progress.make({ isTTY: false, write: (text: string) => written.push(text) })
      yield* pipe.update(10, 20)
      yield* pipe.clear
      expect(written).toEqual([])
      const terminal = yield* Progress.make({ isTTY: true, write: (text: string) => written.push(text) })
      yield* TestClock.adjust("1 second")
      yield* terminal.update(500, 1000)
      yield* terminal.clear
      expect(written).toEqual(["\r\x1b[2K[############------------] 500/1000 items  500/s", "\r\x1b[2K"])
    }))
})
