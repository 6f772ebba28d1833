/**
 * The span of a call as both Effect lines make it: named by the operation, attributes of the
 * operation and the community, never a parameter's text.
 */
import { describe, expect, it } from "vitest"
import * as Operations from "../src/Operations.js"
import * as Spans from "../src/Spans.js"

describe("Spans", () => {
  const op = Operations.all.find((o) => o.creation)!

  it("a call's span is named by its operation and starts at attempt 1, without a stack trace", () => {
    expect(Spans.nameOf(op)).toBe(`CommunityApiClient.${op.section}.${op.method}`)
    expect(Spans.attributesOf(op, {})).toEqual({
      "community_api.operation": op.path,
      "community_api.section": op.section,
      "community_api.method": op.method,
      "community_api.creation": true,
      "community_api.safe_to_repeat": op.safeToRepeat,
      [Spans.attemptAttribute]: 1
    })
    expect([Spans.kind, Spans.captureStackTrace]).toEqual(["client", false])
  })

  it("the community of the parameters is an attribute, nothing else of them", () => {
    const attributes = Spans.attributesOf(op, { group_id: 7, channel: "vk", name: "secret name" })
    expect(attributes["community_api.group_id"]).toBe(7)
    expect(attributes["community_api.channel"]).toBe("vk")
    expect(JSON.stringify(attributes)).not.toContain("secret name")
    expect(Spans.attributesOf(op, undefined)).not.toHaveProperty("community_api.group_id")
    expect(Spans.optionsOf(op, {})).toEqual({
      kind: "client",
      captureStackTrace: false,
      attributes: Spans.attributesOf(op, {})
    })
  })
})
