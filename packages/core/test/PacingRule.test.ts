/**
 * The pacing rule on its own, without a runtime: the holds it gives, and the guarantee they are for.
 * The simulation runs permits on the core's manual clock: `limit` permits, every one taken again the
 * moment it comes back (a user with more work than the limit allows), each request reaching the server
 * after a delay and answered after another, drawn from a seeded generator.
 */
import { describe, expect, it } from "vitest"
import * as Clock from "../src/Clock.js"
import * as PacingRule from "../src/PacingRule.js"
import * as SeededRandom from "../src/SeededRandom.js"

const settings = PacingRule.defaults
const safeHold = settings.windowMillis + settings.marginMillis

interface Latency {
  /** From the send to the server's arrival. */
  readonly toServer: (random: SeededRandom.SeededRandom) => number
  /** From the server back to the sender. */
  readonly back: (random: SeededRandom.SeededRandom) => number
}

const between = (low: number, high: number) => (random: SeededRandom.SeededRandom) => low + random() * (high - low)

/** Sends `requests` under `rule`; returns when each reached the server, in order. */
const simulate = (rule: PacingRule.Rule, latency: Latency, requests: number, seed = 21): Array<number> => {
  const clock = Clock.manual(0)
  const random = SeededRandom.make(seed)
  const arrivals: Array<number> = []
  let sent = 0
  const send = (): void => {
    if (sent === requests) return
    sent++
    const takenAt = clock.now()
    const toServer = latency.toServer(random)
    arrivals.push(takenAt + toServer)
    clock.schedule(toServer + latency.back(random), () => {
      const answeredAt = clock.now()
      const back = PacingRule.heldUntil(rule.holdAfter(answeredAt - takenAt), takenAt, answeredAt)
      clock.schedule(back - answeredAt, send)
    })
  }
  for (let i = 0; i < settings.limit; i++) send()
  clock.advance(24 * 60 * 60 * 1000)
  expect(sent).toBe(requests)
  return arrivals.sort((a, b) => a - b)
}

/** Arrival `i` and arrival `i - limit` less than a window apart: `limit + 1` requests seen in one window. */
const breaches = (arrivals: ReadonlyArray<number>): number =>
  arrivals.filter((at, i) => i >= settings.limit && at - arrivals[i - settings.limit]! < settings.windowMillis)
    .length

describe("PacingRule", () => {
  it("L1 the defaults are the API's limit, its window and a 20 ms margin", () => {
    expect(PacingRule.defaults).toEqual({ limit: 30, windowMillis: 1000, marginMillis: 20 })
    expect(PacingRule.penaltyMillis(settings)).toBe(1020)
  })

  it("L1 a permit comes back at the later end of its hold, from the answer or from the take", () => {
    expect(PacingRule.heldUntil({ afterAnswerMillis: 1020, afterTakeMillis: 0 }, 5_000, 5_300)).toBe(6_320)
    expect(PacingRule.heldUntil({ afterAnswerMillis: 0, afterTakeMillis: 1020 }, 5_000, 5_300)).toBe(6_020)
    expect(PacingRule.heldUntil({ afterAnswerMillis: 0, afterTakeMillis: 0 }, 5_000, 5_300)).toBe(5_300)
  })

  it("L1 the safe rule holds every permit a window plus the margin after its answer", () => {
    const rule = PacingRule.safe(settings)
    for (const held of [0, 100, 100, 5_000]) {
      expect(rule.holdAfter(held)).toEqual({ afterAnswerMillis: safeHold, afterTakeMillis: 0 })
    }
  })

  it("L1 the learning rule holds safe until its 30th observation, then gives back the latency every request shares", () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
      expect(rule.holdAfter(250).afterAnswerMillis).toBe(safeHold)
    }
    const hold = rule.holdAfter(250)
    expect(hold).toEqual({ afterAnswerMillis: safeHold - 250, afterTakeMillis: 0 })
    // Held a window and the margin from its take.
    expect(PacingRule.heldUntil(hold, 0, 250)).toBe(safeHold)
    // After a refusal (error 5) nothing learnt is trusted.
    rule.refused()
    expect(rule.holdAfter(250).afterAnswerMillis).toBe(safeHold)
  })

  it("L1 with delays that vary within the band, no window ever sees more than the limit, and the rule paces faster than the safe one", () => {
    // Held times 200..220 ms: the delay to the server varies by 10 ms, within the band's 20.
    const latency: Latency = { toServer: between(100, 110), back: between(100, 110) }
    const learned = simulate(PacingRule.make(settings), latency, 1_500)
    const safe = simulate(PacingRule.safe(settings), latency, 1_500)
    expect(breaches(learned)).toBe(0)
    expect(breaches(safe)).toBe(0)
    // A permit cycles in about 1020 + 20 ms instead of 1020 + 210: the same requests in less time.
    expect(learned.at(-1)!).toBeLessThan(0.9 * safe.at(-1)!)
  })

  it("L1 when the delay to the server varies widely, the band widens and no window sees more than the limit", () => {
    // Fast answers back, and a delay to the server of 0..200 ms: the held times spread as widely.
    const latency: Latency = { toServer: between(0, 200), back: between(0, 20) }
    expect(breaches(simulate(PacingRule.make(settings), latency, 1_500))).toBe(0)
  })

  it("the check sees a window with more than the limit when a rule holds too little", () => {
    // Held a window from the take, whatever the delay: a slow arrival then a fast one crowd a window.
    const tooShort: PacingRule.Rule = {
      holdAfter: (held) => ({ afterAnswerMillis: Math.max(0, settings.windowMillis - held), afterTakeMillis: 0 }),
      refused: () => {}
    }
    const latency: Latency = { toServer: between(0, 200), back: between(0, 20) }
    expect(breaches(simulate(tooShort, latency, 1_500))).toBeGreaterThan(0)
  })
})
