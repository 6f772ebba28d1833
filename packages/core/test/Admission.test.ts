/**
 * What an admission does once its answer is read (`Admission`), the table both lines run on their
 * limiters: 9 gives back, 5 is told to its limit, and a creation's refusal gives back and waits off the
 * beat (the rate) or uses up the quota's window.
 */
import { describe, expect, it } from "vitest"
import * as Admission from "../src/Admission.js"
import * as SyncEffects from "./support/SyncEffects.js"

const ordinary = { safeToRepeat: true, creation: false }
const creation = { safeToRepeat: false, creation: true }

describe("Admission", () => {
  it("A6 L1 L2 error 9 gives the admission back, error 5 tells its limit, any other failure nothing", () => {
    expect(Admission.afterFailure(creation, { _tag: "KeyServiceUnavailableError", code: 9 })).toBe("give-back")
    expect(Admission.afterFailure(ordinary, { _tag: "KeyServiceUnavailableError", code: 9 })).toBe("give-back")
    expect(Admission.afterFailure(creation, { _tag: "RateLimitError", code: 5 })).toBe("refused")
    expect(Admission.afterFailure(ordinary, { _tag: "RateLimitError", code: 5 })).toBe("refused")
    expect(Admission.afterFailure(creation, { _tag: "InternalServerError", code: 101 })).toBe("none")
    expect(Admission.afterFailure(creation, { _tag: "TransportError" })).toBe("none")
  })

  it("L2 L5 a creation refused by the rate is given back and waits off the beat; by the quota, uses up its window", () => {
    expect(Admission.creationRefused("rate")).toBe("give-back-and-wait")
    expect(Admission.creationRefused("minute")).toBe("exhaust-minute")
    expect(Admission.creationRefused("day")).toBe("exhaust-day")
    expect(Admission.offBeatMillis({ marginMillis: 50 }, 0)).toBe(50)
    expect(Admission.offBeatMillis({ marginMillis: 50 }, 999)).toBe(1_049)
  })

  it("L2 a creation whose last count finds the minute used up starts over in wait mode only", () => {
    const minute = { _tag: "CreationQuotaExceeded", window: "minute" }
    expect(Admission.startsOver("wait", minute)).toBe(true)
    expect(Admission.startsOver("fail", minute)).toBe(false)
    expect(Admission.startsOver("wait", { _tag: "CreationQuotaExceeded", window: "day" })).toBe(false)
    expect(Admission.startsOver("wait", { _tag: "LimiterUnavailable" })).toBe(false)
    expect(Admission.startsOver("wait", undefined)).toBe(false)
  })

  it("A6 L1 the step after a failure is the admission's own: its give-back, its refusal of the error, or none", () => {
    const admitted = { answer: 1, giveBack: "gave back", refused: (error: unknown) => `refused ${String(error)}` }
    const nine = { _tag: "KeyServiceUnavailableError", code: 9, toString: () => "9" }
    const five = { _tag: "RateLimitError", code: 5, toString: () => "5" }
    expect(Admission.stepAfter(creation, admitted, nine, "none")).toBe("gave back")
    expect(Admission.stepAfter(creation, admitted, five, "none")).toBe("refused 5")
    expect(Admission.stepAfter(creation, admitted, { _tag: "InternalServerError", code: 101 }, "none")).toBe("none")
  })
})

describe("Admission.paced and counted", () => {
  const { logged, succeed } = SyncEffects
  /** Limiters that write what they are asked to `log`; the confirmation fails with `confirmed` first. */
  const world = (confirmed: Array<SyncEffects.Result<number, unknown>> = []) => {
    const log: Array<string> = []
    const effects = SyncEffects.effects(log, { millis: 0 }, 7)
    const pacing: Admission.Pacing<SyncEffects.F, never> = {
      settings: { windowMillis: 1_000, marginMillis: 20 },
      withPermit: (user, lane) => (send) => () => {
        log.push(`permit ${user} ${lane ?? "unmarked"}`)
        return send()
      },
      penalize: (user) => logged(log, `penalize ${user}`, undefined)
    }
    const quota: Admission.Quota<SyncEffects.F, unknown> = {
      acquire: (user, operation, mode) => logged(log, `acquire ${user} ${operation} ${mode}`, 100),
      confirm: (_user, _operation, taken) => () => {
        log.push(`confirm ${taken}`)
        return confirmed.shift() ?? { ok: true, value: taken + 1 }
      },
      refund: (_user, taken) => logged(log, `refund ${taken}`, undefined),
      exhaustMinute: (user) => logged(log, `exhaust minute ${user}`, undefined),
      exhaustDay: (user) => logged(log, `exhaust day ${user}`, undefined),
      usedUp: () => succeed(undefined)
    }
    const creation = (mode: "wait" | "fail", lane?: "interactive") =>
      Admission.counted<SyncEffects.F, unknown>(effects)(quota, pacing, "owner", "lists/create", mode, lane)
        .admit(logged(log, "send", "answer"))()
    return { effects, log, pacing, creation }
  }

  it("L1 an ordinary request holds a permit of its lane; its refusal is counted and penalizes the user", () => {
    const { effects, log, pacing } = world()
    const admitted = Admission.paced<SyncEffects.F, never>(effects)(pacing, "owner", "batch")
      .admit(logged(log, "send", "answer"))()
    expect(admitted.ok && admitted.value.answer).toBe("answer")
    expect(admitted.ok && admitted.value.giveBack()).toEqual({ ok: true, value: undefined })
    expect(admitted.ok && admitted.value.refused({ code: 5 })()).toEqual({ ok: true, value: undefined })
    expect(log).toEqual(["permit owner batch", "send", "refused rate", "penalize owner"])
  })

  it("L2 A6 a creation is counted, then paced, then confirmed before it is sent; error 9 gives back what was confirmed", () => {
    const { creation, log } = world()
    const admitted = creation("wait")
    expect(admitted.ok && admitted.value.answer).toBe("answer")
    if (admitted.ok) admitted.value.giveBack()
    expect(log).toEqual([
      "acquire owner lists/create wait",
      "permit owner unmarked",
      "confirm 100",
      "send",
      "refund 101"
    ])
  })

  it("L2 L5 a creation refused by the rate is given back and waits off the beat; by the quota, uses up its window", () => {
    const { creation, log } = world()
    const admitted = creation("fail", "interactive")
    expect(log[1]).toBe("permit owner interactive")
    log.length = 0
    if (!admitted.ok) throw new Error("not admitted")
    admitted.value.refused({ code: 5, text: "Too many requests" })()
    expect(log).toEqual(["refused rate", "refund 101", "draw below 1000", "sleep 27"])
    log.length = 0
    admitted.value.refused({ code: 5, text: "Too many creations per minute" })()
    admitted.value.refused({ code: 5, text: "Too many creations per day" })()
    expect(log).toEqual(["refused minute", "exhaust minute owner", "refused day", "exhaust day owner"])
  })

  it("L2 a creation whose confirmation finds the minute used up starts over in wait mode, and fails in fail mode", () => {
    const minute = { ok: false, error: { _tag: "CreationQuotaExceeded", window: "minute" } } as const
    const waiting = world([minute])
    expect(waiting.creation("wait").ok).toBe(true)
    expect(waiting.log.filter((entry) => entry.startsWith("acquire")).length).toBe(2)
    const failing = world([minute])
    expect(failing.creation("fail")).toEqual(minute)
    expect(failing.log).not.toContain("send")
  })
})
