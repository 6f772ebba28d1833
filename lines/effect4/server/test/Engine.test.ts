/**
 * The engine bundle exports what `engine/engine.d.ts` declares: the handler, the server with its
 * controls, and the constants, so the types this package is checked against are the bundle's.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Engine from "../engine/engine.js"

describe("the engine bundle", () => {
  it("C1 exports the handler, the server with its controls, and the constants declared", () => {
    expect(Object.keys(Engine).sort()).toEqual(["demoControlToken", "inProcessBaseUrl", "toWebHandler", "toWebServer"])
    const { controls, handler } = Engine.toWebServer()
    expect(typeof handler).toBe("function")
    expect(Object.keys(controls).sort()).toEqual([
      "clearFaults",
      "clearJournal",
      "faults",
      "issueToken",
      "journal",
      "limits",
      "load",
      "recentRequests",
      "requestCount",
      "reset",
      "revokeToken",
      "setFaults",
      "snapshot"
    ])
    expect(Engine.inProcessBaseUrl).toMatch(/\/external-api\/v2$/)
    expect(controls.snapshot().bots.length).toBeGreaterThan(0)
  })
})
