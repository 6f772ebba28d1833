/**
 * The priority lanes: which lane a call is in, and the share of a window kept for interactive calls.
 */
import { describe, expect, it } from "vitest"
import * as Lane from "../src/Lane.js"

describe("Lane", () => {
  it("L1 a call's mark wins over its client's lane, and a call marked by neither is interactive", () => {
    expect(Lane.of("batch", "interactive")).toBe("batch")
    expect(Lane.of("interactive", "batch")).toBe("interactive")
    expect(Lane.of(undefined, "batch")).toBe("batch")
    expect(Lane.of(undefined, undefined)).toBe("interactive")
  })

  it("L1 the permits kept for interactive calls are rounded down and never all of them", () => {
    expect(Lane.reserved(30, Lane.defaults.interactiveShare)).toBe(6)
    expect(Lane.reserved(30, 1)).toBe(29)
    expect(Lane.reserved(30, 0)).toBe(0)
    expect(() => Lane.reserved(30, 1.5)).toThrow(RangeError)
    expect(Lane.isLane("batch")).toBe(true)
    expect(Lane.isLane("bulk")).toBe(false)
  })
})
