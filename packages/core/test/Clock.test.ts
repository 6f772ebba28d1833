import { describe, expect, it } from "vitest"
import * as Clock from "../src/Clock.js"

describe("Clock.manual", () => {
  it("wakes scheduled calls in the order of their times, and those they schedule within the step", () => {
    const clock = Clock.manual(1_000)
    const woken: Array<string> = []
    clock.schedule(300, () => woken.push(`b@${clock.now()}`))
    clock.schedule(100, () => {
      woken.push(`a@${clock.now()}`)
      clock.schedule(100, () => woken.push(`c@${clock.now()}`))
    })
    clock.schedule(900, () => woken.push(`d@${clock.now()}`))
    clock.advance(500)
    expect(woken).toEqual(["a@1100", "c@1200", "b@1300"])
    expect(clock.now()).toBe(1_500)
    expect(clock.pending()).toBe(1)
  })

  it("a cancelled call is not woken, and the time never goes back", () => {
    const clock = Clock.manual(0)
    let woken = false
    const cancel = clock.schedule(10, () => {
      woken = true
    })
    cancel()
    clock.setTime(60_000)
    clock.setTime(5)
    expect(woken).toBe(false)
    expect(clock.now()).toBe(60_000)
  })

  it("the system clock reads the time and wakes a call", async () => {
    const before = Date.now()
    expect(Clock.system.now()).toBeGreaterThanOrEqual(before)
    await new Promise<void>((resolve) => Clock.system.schedule(1, resolve))
  })
})
