/**
 * The metrics' declarations both Effect lines build from: the outcomes read from errors, and the
 * bounded set of users with per-user series.
 */
import { describe, expect, it } from "vitest"
import * as MetricNames from "../src/MetricNames.js"

describe("MetricNames", () => {
  it("every name carries the prefix, and the histogram's boundaries ascend", () => {
    const all = [
      MetricNames.calls,
      MetricNames.retries,
      MetricNames.permitWait,
      MetricNames.refusals,
      MetricNames.users,
      MetricNames.permitsHeld,
      MetricNames.userPermitsHeld
    ]
    for (const definition of all) expect(definition.name.startsWith(MetricNames.prefix)).toBe(true)
    expect(new Set(all.map((definition) => definition.name)).size).toBe(all.length)
    const bounds = MetricNames.permitWaitBoundaries
    expect(bounds.every((bound, i) => i === 0 || bound > bounds[i - 1]!)).toBe(true)
  })

  it("A6 X1 an outcome is the API error's code, or the kind of the client's own failure", () => {
    expect(MetricNames.outcomeOf("KeyServiceUnavailableError", 9)).toBe("9")
    expect(MetricNames.outcomeOf("TransportError", undefined)).toBe("transport")
    expect(MetricNames.outcomeOf("TimeoutError", undefined)).toBe("timeout")
    expect(MetricNames.outcomeOf("TimeoutError", undefined, "call")).toBe("deadline")
    expect(MetricNames.outcomeOf("LimiterUnavailable", undefined)).toBe("limiter")
    expect(MetricNames.outcomeOf("CreationQuotaExceeded", undefined)).toBe("quota")
    expect(MetricNames.outcomeOf("Unheard", undefined)).toBe("other")
  })

  it("L1 at most `max` users have per-user series, and a released place is taken again", () => {
    const places = MetricNames.makePerUser(2)
    expect(places.admit("a")).toBe(true)
    expect(places.admit("b")).toBe(true)
    expect(places.admit("c")).toBe(false)
    expect(places.admit("a")).toBe(true)
    expect(places.release("c")).toBe(false)
    expect(places.release("a")).toBe(true)
    expect(places.admit("c")).toBe(true)
    expect(places.size()).toBe(2)
  })
})
