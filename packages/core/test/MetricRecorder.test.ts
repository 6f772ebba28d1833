/**
 * The series each event of a call adds one to, as both Effect lines record them: made once per set of
 * tag values, a creation the client's own quota refused counted as a refusal too.
 */
import { describe, expect, it } from "vitest"
import * as MetricNames from "../src/MetricNames.js"
import * as MetricRecorder from "../src/MetricRecorder.js"
import * as Operations from "../src/Operations.js"

/** A series as a test sees it: its counter's name and its tags; `made` counts the series made. */
const makeRecorder = () => {
  let made = 0
  const recorder = MetricRecorder.make(
    { calls: MetricNames.calls.name, retries: MetricNames.retries.name, refusals: MetricNames.refusals.name },
    (counter, tags) => {
      made++
      return { counter, tags }
    }
  )
  return { recorder, made: () => made }
}

describe("MetricRecorder", () => {
  it("X1 a call is counted by operation and outcome, each series made once", () => {
    const { made, recorder } = makeRecorder()
    const ok = recorder.callEnded("bots/get", MetricRecorder.success)
    expect(ok).toEqual([{ counter: MetricNames.calls.name, tags: { operation: "bots/get", outcome: "ok" } }])
    expect(recorder.callEnded("bots/get", MetricRecorder.success)[0]).toBe(ok[0])
    expect(made()).toBe(1)
    const timeout = MetricRecorder.failure({ _tag: "TimeoutError", scope: "call" })
    expect(recorder.callEnded("bots/get", timeout)[0]!.tags.outcome).toBe("deadline")
    expect(recorder.callEnded("bots/get", MetricRecorder.failure({ _tag: "BotNotFound", code: 114 }))[0]!.tags)
      .toEqual({ operation: "bots/get", outcome: "114" })
    expect(recorder.callEnded("bots/get", MetricRecorder.interrupted)[0]!.tags.outcome).toBe("interrupted")
    expect(recorder.callEnded("bots/get", MetricRecorder.defect)[0]!.tags.outcome).toBe("other")
  })

  it("L2 a creation refused by the client's own quota is a refusal of its window, from the client", () => {
    const { recorder } = makeRecorder()
    const quota = MetricRecorder.failure({ _tag: "CreationQuotaExceeded", window: "minute" })
    expect(recorder.callEnded("lists/create", quota)).toEqual([
      { counter: MetricNames.calls.name, tags: { operation: "lists/create", outcome: "quota" } },
      { counter: MetricNames.refusals.name, tags: { kind: "minute", source: "client" } }
    ])
  })

  it("A6 L1 a retry is counted by the reason before it, a refusal of the server by its kind", () => {
    const { recorder } = makeRecorder()
    expect(recorder.retried({ _tag: "KeyServiceUnavailableError", code: 9 }).tags).toEqual({ reason: "9" })
    expect(recorder.retried(new Error("boom")).tags).toEqual({ reason: "other" })
    expect(recorder.refused("rate")).toEqual({
      counter: MetricNames.refusals.name,
      tags: { kind: "rate", source: "server" }
    })
  })

  it("the series known ahead: each operation's ok calls, each retry reason and each refusal, made once", () => {
    const { made, recorder } = makeRecorder()
    const known = recorder.known()
    expect(known).toHaveLength(Operations.all.length + 5 + 5)
    expect(known).toContainEqual({ counter: MetricNames.calls.name, tags: { operation: "users/me", outcome: "ok" } })
    expect(known).toContainEqual({ counter: MetricNames.retries.name, tags: { reason: "timeout" } })
    expect(known).toContainEqual({ counter: MetricNames.refusals.name, tags: { kind: "day", source: "client" } })
    // The series an event adds to later is the one made ahead.
    expect(known).toContain(recorder.refused("rate"))
    expect(known).toContain(recorder.retried({ _tag: "KeyServiceUnavailableError", code: 9 }))
    expect(known).toContain(recorder.callEnded("users/me", MetricRecorder.success)[0])
    expect(made()).toBe(known.length)
  })

  it("X1 the series a call's end adds to are looked up, not made again: the same list at each call", () => {
    const { made, recorder } = makeRecorder()
    const first = recorder.callEnded("users/me", MetricRecorder.success)
    expect(recorder.callEnded("users/me", MetricRecorder.success)).toBe(first)
    const failed = MetricRecorder.failure({ _tag: "TransportError" })
    expect(recorder.callEnded("users/me", failed)).toBe(recorder.callEnded("users/me", failed))
    expect(made()).toBe(2)
  })

  it("the series known ahead are declared once in each registry", () => {
    const { recorder } = makeRecorder()
    const [global, context] = [{}, {}]
    expect([recorder.declares(global), recorder.declares(global), recorder.declares(context)])
      .toEqual([true, false, true])
    expect(makeRecorder().recorder.declares(global)).toBe(true)
  })

  it("the outcome of an error without a tag, or not an object, is other", () => {
    expect(MetricRecorder.outcomeOfError(undefined)).toBe("other")
    expect(MetricRecorder.outcomeOfError("TransportError")).toBe("other")
    expect(MetricRecorder.outcomeOfError({ _tag: "TransportError" })).toBe("transport")
  })
})
