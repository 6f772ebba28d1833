/**
 * The plan of the timers' fiber of one clock: when it is forked, restarted or stopped, what is due at
 * each wake-up and how long it sleeps next, safe against callbacks that add or remove timers while
 * it fires; and when a background sleep keeps the process alive.
 */
import { describe, expect, it, vi } from "vitest"
import type * as Timed from "../src/Timed.js"
import * as TimerPlan from "../src/TimerPlan.js"

const clockAt = () => {
  const clock = { now: 0 }
  const plan = TimerPlan.make<typeof clock, string>().of(clock, () => clock.now)
  return { clock, plan }
}

describe("TimerPlan", () => {
  it("forks a fiber for the first timer, restarts it only for a timer due before its wake-up", () => {
    const { plan } = clockAt()
    const first = plan.add(300, () => {})
    expect(first.fork).toBe(true)
    expect(first.stop).toBeUndefined()
    plan.forked("f1")
    expect(plan.add(300, () => {}).fork).toBe(false)
    expect(plan.add(400, () => {}).fork).toBe(false)
    const earlier = plan.add(100, () => {})
    expect(earlier.fork).toBe(true)
    expect(earlier.stop).toBe("f1")
    plan.forked("f2")
    // Stopped already: the next timer before the wake-up has nothing to stop but the new fiber.
    expect(plan.add(50, () => {}).stop).toBe("f2")
  })

  it("calls what is due at each step, sleeps whole milliseconds until the next, ends with the last", () => {
    const { clock, plan } = clockAt()
    const called: Array<[string, number]> = []
    plan.add(300, (now) => called.push(["b", now]))
    plan.add(100.4, (now) => called.push(["a", now]))
    plan.forked("f")
    expect(plan.step()).toBe(101)
    clock.now = 101
    expect(plan.step()).toBe(199)
    expect(called).toEqual([["a", 101]])
    clock.now = 300
    expect(plan.step()).toBeUndefined()
    expect(called).toEqual([["a", 101], ["b", 300]])
    // Ended with the last timer: the next one forks a fiber again.
    expect(plan.add(400, () => {})).toMatchObject({ fork: true, stop: undefined })
  })

  it("stops the fiber when the last timer is removed, not before", () => {
    const { plan } = clockAt()
    const a = plan.add(100, () => {})
    const b = plan.add(200, () => {})
    plan.forked("f")
    expect(plan.remove(a.timer)).toBeUndefined()
    expect(plan.remove(b.timer)).toBe("f")
    expect(plan.remove(b.timer)).toBeUndefined()
  })

  it("neither stops nor restarts the fiber for timers added or removed by a callback while it fires", () => {
    const { clock, plan } = clockAt()
    const called: Array<string> = []
    const decisions: Array<TimerPlan.Added<string> | string | undefined> = []
    plan.add(100, () => {
      called.push("first")
      decisions.push(plan.remove(last.timer))
      decisions.push(plan.add(120, () => called.push("added")))
    })
    const last = plan.add(200, () => called.push("removed"))
    plan.forked("f")
    clock.now = 100
    expect(plan.step()).toBe(20)
    expect(decisions).toEqual([undefined, expect.objectContaining({ fork: false, stop: undefined })])
    clock.now = 120
    expect(plan.step()).toBeUndefined()
    expect(called).toEqual(["first", "added"])
  })

  it("forgets a fiber that ended otherwise, so that the next timer forks another", () => {
    const { plan } = clockAt()
    plan.add(100, () => {})
    plan.forked("f")
    plan.ended("other")
    expect(plan.add(200, () => {}).fork).toBe(false)
    plan.ended("f")
    expect(plan.add(200, () => {})).toMatchObject({ fork: true, stop: undefined })
  })

  it("keeps each clock's timers apart", () => {
    const plans = TimerPlan.make<object, string>()
    const one = {}
    const other = {}
    expect(plans.of(one, () => 0)).toBe(plans.of(one, () => 0))
    plans.of(one, () => 0).add(100, () => {})
    plans.of(one, () => 0).forked("f")
    expect(plans.of(other, () => 0).add(200, () => {}).fork).toBe(true)
  })

  it("refs a background sleep while a call waits for a timer, and unrefs it after the last", () => {
    const plan = TimerPlan.make<object, string>({ inBackground: true })
    expect(plan.inBackground).toBe(true)
    const handle = { ref: vi.fn(), unref: vi.fn() }
    plan.awaited(1)
    expect(plan.keepsAlive()).toBe(true)
    plan.awaited(-1)
    expect(plan.keepsAlive()).toBe(false)
    plan.sleeping(handle)
    plan.awaited(1)
    plan.awaited(1)
    expect(handle.ref).toHaveBeenCalledTimes(1)
    plan.awaited(-1)
    expect(handle.unref).not.toHaveBeenCalled()
    plan.awaited(-1)
    expect(handle.unref).toHaveBeenCalledTimes(1)
    plan.sleeping(undefined)
    plan.awaited(1)
    expect(handle.ref).toHaveBeenCalledTimes(1)
  })

  it("sleeps in the background on a timeout, told of its handle while it lasts, and can be cancelled", () => {
    vi.useFakeTimers()
    try {
      const handles: Array<TimerPlan.Handle | undefined> = []
      const woke = vi.fn()
      TimerPlan.sleepInBackground(50, woke, { keepsAlive: () => false, sleeping: (handle) => handles.push(handle) })
      expect(handles).toHaveLength(1)
      expect(handles[0]).toBeDefined()
      vi.advanceTimersByTime(50)
      expect(woke).toHaveBeenCalledTimes(1)
      expect(handles[1]).toBeUndefined()
      const cancelled = vi.fn()
      const cancel = TimerPlan.sleepInBackground(50, cancelled)
      cancel()
      vi.advanceTimersByTime(100)
      expect(cancelled).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })
})

/** A fiber of the effects below: stopped (`interrupted`) or ended, and told to its observers once. */
interface Fiber {
  interrupted: boolean
  ended: boolean
  readonly observers: Array<() => void>
}

/** An effect run on a fiber, which calls `k` with its result when it completes. */
type Eff<A> = (fiber: Fiber, k: (a: A) => void) => void
interface F extends Timed.Lambda {
  readonly type: Eff<this["A"]>
}

const fiberOf = (): Fiber => ({ interrupted: false, ended: false, observers: [] })

const ended = (fiber: Fiber) => {
  if (fiber.ended) return
  fiber.ended = true
  for (const observer of fiber.observers) observer()
}

/** A clock moved by hand, the fibers its timers fork, and the effects of a line over them. */
const world = () => {
  const clock = { now: 0, sleepers: [] as Array<{ at: number; fiber: Fiber; wake: () => void }> }
  const forked: Array<Fiber> = []
  const background: Array<number> = []
  const effects: TimerPlan.Effects<F, typeof clock, Fiber> = {
    live: { now: 0, sleepers: [] },
    now: (clock) => clock.now,
    clockWith: (f) => (fiber, k) => f(clock)(fiber, k),
    sleep: (clock, millis) => (fiber, k) =>
      void clock.sleepers.push({ at: clock.now + millis, fiber, wake: () => k() }),
    callback: (start) => (_, k) => {
      background.push(1)
      start(() => k())
    },
    suspend: (make) => (fiber, k) => make()(fiber, k),
    succeed: (value) => (_, k) => k(value),
    andThen: (first, next) => (fiber, k) => first(fiber, () => next(fiber, k)),
    map: (effect, f) => (fiber, k) => effect(fiber, (a) => k(f(a))),
    // The fiber is handed over before it runs, as a fork starts its fiber later.
    fork: (effect) => (_, k) => {
      const child = fiberOf()
      forked.push(child)
      k(child)
      effect(child, () => ended(child))
    },
    onEnd: (fiber, f) => void fiber.observers.push(f),
    stopping: (f) =>
      f((fiber) => {
        fiber.interrupted = true
        ended(fiber)
      })
  }
  const run = <A>(effect: Eff<A>): A => {
    let result: A | undefined
    effect(fiberOf(), (a) => {
      result = a
    })
    return result as A
  }
  /** Moves the clock to `to`, waking the sleepers due on the way, in order, unless their fiber was stopped. */
  const advance = (to: number) => {
    for (;;) {
      clock.sleepers.sort((a, b) => a.at - b.at)
      const next = clock.sleepers[0]
      if (next === undefined || next.at > to) break
      clock.sleepers.shift()
      clock.now = next.at
      if (!next.fiber.interrupted) next.wake()
    }
    clock.now = to
  }
  return { advance, background, effects, forked, run }
}

describe("TimerPlan.timers", () => {
  it("calls each timer once when due, in order, a removed one never, on a fiber that ends with the last", () => {
    const { advance, effects, forked, run } = world()
    const timers = TimerPlan.timers(effects)
    const called: Array<[string, number]> = []
    const add = (name: string, at: number) => run(timers.addAt(at, (now) => called.push([name, now])))
    add("b", 300)
    add("a", 100)
    const removed = add("x", 200)
    add("c", 300)
    run(timers.remove(removed))
    advance(250)
    expect(called).toEqual([["a", 100]])
    advance(400)
    expect(called).toEqual([["a", 100], ["b", 300], ["c", 300]])
    // Restarted once, for the timer due before the first one; the second fiber ended with the last timer.
    expect(forked.map((fiber) => [fiber.interrupted, fiber.ended])).toEqual([[true, true], [false, true]])
  })

  it("restarts the fiber for a timer due before its wake-up, and stops it with the last timer removed", () => {
    const { effects, forked, run } = world()
    const timers = TimerPlan.timers(effects)
    const late = run(timers.addAt(300, () => {}))
    const early = run(timers.addAt(100, () => {}))
    expect(forked.map((fiber) => fiber.interrupted)).toEqual([true, false])
    run(timers.remove(late))
    expect(forked[1]?.ended).toBe(false)
    run(timers.remove(early))
    expect(forked[1]).toMatchObject({ interrupted: true, ended: true })
  })

  it("sleeps in the background on the live clock only", () => {
    const { background, effects, run } = world()
    vi.useFakeTimers()
    try {
      let woke = false
      TimerPlan.sleeping(effects, effects.live, 5)(fiberOf(), () => {
        woke = true
      })
      expect(background).toEqual([1])
      vi.advanceTimersByTime(5)
      expect(woke).toBe(true)
      run(TimerPlan.sleeping(effects, { now: 0, sleepers: [] }, 5))
      expect(background).toEqual([1])
    } finally {
      vi.useRealTimers()
    }
  })
})
