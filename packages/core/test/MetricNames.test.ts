/**
 * The metrics' declarations both Effect lines build from: the outcomes read from errors, and the
 * bounded set of users with per-user series.
 */
import { describe, expect, it } from "vitest"
import * as MetricNames from "../src/MetricNames.js"

describe("MetricNames", () => {
  it("every name carries the prefix, and the histogram's boundaries ascend", () => {
    const all = MetricNames.definitions
    expect(all).toHaveLength(7)
    for (const definition of all) expect(definition.name.startsWith(MetricNames.prefix)).toBe(true)
    expect(new Set(all.map((definition) => definition.name)).size).toBe(all.length)
    const bounds = MetricNames.permitWaitBoundaries
    expect(bounds.every((bound, i) => i === 0 || bound > bounds[i - 1]!)).toBe(true)
  })

  it("the names follow Prometheus's conventions: counters end in _total, durations are _seconds in seconds", () => {
    expect(MetricNames.definitions.map((definition) => definition.name)).toEqual([
      "community_api_client_calls_total",
      "community_api_client_retries_total",
      "community_api_client_permit_wait_seconds",
      "community_api_client_refusals_total",
      "community_api_client_users",
      "community_api_client_permits_held",
      "community_api_client_user_permits_held"
    ])
    for (const definition of MetricNames.definitions) {
      expect(definition.name.endsWith("_total")).toBe(definition.kind === "counter")
    }
    expect(MetricNames.permitWait.unit).toBe("s")
    expect(MetricNames.permitWaitBoundaries[0]).toBe(0.001)
    expect(MetricNames.permitWaitBoundaries.at(-1)).toBe(30)
    expect(MetricNames.secondsOf(1_020)).toBe(1.02)
  })

  it("A6 L1 L2 the retry reasons and the refusals are known ahead", () => {
    expect(MetricNames.retryReasons).toEqual(["5", "9", "101", "transport", "timeout"])
    expect(MetricNames.refusalSeries).toEqual([
      { kind: "rate", source: "server" },
      { kind: "minute", source: "server" },
      { kind: "day", source: "server" },
      { kind: "minute", source: "client" },
      { kind: "day", source: "client" }
    ])
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

  it("a user's series is made once while the user has a place, and given back to be removed when the user leaves", () => {
    expect(MetricNames.perUserSeriesOf({})).toBeUndefined()
    const series = MetricNames.perUserSeriesOf<string>({ perUser: { max: 1 } })!
    let made = 0
    const make = (user: string) => () => `${user}:${++made}`
    expect(series.of("a", make("a"))).toBe("a:1")
    expect(series.of("a", make("a"))).toBe("a:1")
    expect(series.of("b", make("b"))).toBeUndefined()
    expect(series.release("b")).toBeUndefined()
    expect(series.release("a")).toBe("a:1")
    expect(series.release("a")).toBeUndefined()
    expect(series.of("b", make("b"))).toBe("b:2")
  })
})
