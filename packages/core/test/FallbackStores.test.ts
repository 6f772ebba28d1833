/**
 * The stores with this process's memory behind the shared one: each operation goes to the shared
 * store, or to memory (after one warning) while the shared store is unavailable; a permit goes back
 * where it came from, a block or a used-up window to both, and a creation counted in memory is given
 * back or counted again there, not in the shared store.
 */
import { describe, expect, it } from "vitest"
import * as Budget from "../src/Budget.js"
import * as FallbackStores from "../src/FallbackStores.js"
import * as Limits from "../src/Limits.js"
import type * as PacingRule from "../src/PacingRule.js"
import type * as PermitStore from "../src/PermitStore.js"
import type * as RedisCounts from "../src/RedisCounts.js"

/** A synchronous effect: run, it gives its value or fails with the store's reason. */
type Sync<A> = () => { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: string }
interface F extends RedisCounts.TypeLambda {
  readonly type: Sync<this["A"]>
}

const world = () => {
  const log: Array<string> = []
  let now = 0
  let up = true
  const effects: FallbackStores.Effects<F> = {
    orMemory: (shared, memory) => () => {
      const result = shared()
      if (result.ok) return result
      log.push(`warn ${result.error}`)
      return memory()
    },
    both: (shared, memory) => () => {
      const result = shared()
      if (!result.ok) log.push(`warn ${result.error}`)
      return memory()
    },
    suspend: (make) => () => make(now)(),
    map: (effect, f) => () => {
      const result = effect()
      return result.ok ? { ok: true, value: f(result.value) } : result
    },
    succeed: (value) => () => ({ ok: true, value })
  }
  /** An operation of the store `name`: logged, and failing while the shared store is down. */
  const op = <A>(name: string, what: string, value: A): Sync<A> => () => {
    if (name === "shared" && !up) return { ok: false, error: "down" }
    log.push(`${name} ${what}`)
    return { ok: true, value }
  }
  const permits = (name: string): FallbackStores.Permits<F, string> => ({
    limit: 30,
    take: (user) => op(name, `take ${user}`, { user }),
    release: (permit) => `${name} release ${permit.user}`,
    budget: (user) => op(name, `budget ${user}`, { used: 0, limit: 30, left: 30, resetsAt: undefined }),
    block: (user, millis) => op(name, `block ${user} ${millis}`, undefined)
  })
  const counts = (name: string): RedisCounts.Store<F> => ({
    take: (user) => op(name, `take ${user}`, { _tag: "Taken", at: now }),
    retake: (user, taken) => op(name, `retake ${user} ${taken}`, { _tag: "Taken", at: taken }),
    refund: (user, taken) => op(name, `refund ${user} ${taken}`, undefined),
    exhaust: (user, window) => op(name, `exhaust ${user} ${window}`, undefined),
    usedUp: (user) => op(name, `usedUp ${user}`, undefined),
    budget: (user) => op(name, `budget ${user}`, Budget.creations(Limits.emptyCount, now))
  })
  return {
    log,
    effects,
    permits,
    counts,
    at: (millis: number) => {
      now = millis
    },
    down: () => {
      up = false
    },
    back: () => {
      up = true
    }
  }
}

const hold: PacingRule.Hold = { afterAnswerMillis: 0, afterTakeMillis: 0 }

const value = <A>(effect: Sync<A>): A => {
  const result = effect()
  if (!result.ok) throw new Error(result.error)
  return result.value
}

describe("FallbackStores", () => {
  it("L1 a permit comes from the shared store, or from memory while it is unavailable, and goes back where it came from", () => {
    const w = world()
    const store = FallbackStores.permits(w.effects, w.permits("shared"), w.permits("memory"))
    const shared: PermitStore.Permit = value(store.take("u"))
    w.down()
    const memory: PermitStore.Permit = value(store.take("u"))
    expect(w.log).toEqual(["shared take u", "warn down", "memory take u"])
    expect(store.release(shared, hold)).toBe("shared release u")
    expect(store.release(memory, hold)).toBe("memory release u")
    expect(store.limit).toBe(30)
  })

  it("L1 a block goes to both stores, the shared store's failure passed over", () => {
    const w = world()
    const store = FallbackStores.permits(w.effects, w.permits("shared"), w.permits("memory"))
    value(store.block("u", 1_000))
    w.down()
    value(store.block("u", 2_000))
    value(store.budget("u"))
    expect(w.log).toEqual([
      "shared block u 1000",
      "memory block u 1000",
      "warn down",
      "memory block u 2000",
      "warn down",
      "memory budget u"
    ])
  })

  it("L2 a creation counted in memory while the shared store is unavailable is given back in memory, not in Redis", () => {
    const w = world()
    const store = FallbackStores.counts(w.effects, w.counts("shared"), w.counts("memory"))
    w.at(5_000)
    w.down()
    value(store.take("u"))
    w.back()
    value(store.refund("u", 5_000))
    value(store.refund("u", 7_000))
    expect(w.log).toEqual(["warn down", "memory take u", "memory refund u 5000", "shared refund u 7000"])
  })

  it("L2 a creation counted in memory is confirmed in memory; one counted in Redis holds within its minute while Redis is unavailable", () => {
    const w = world()
    const store = FallbackStores.counts(w.effects, w.counts("shared"), w.counts("memory"))
    w.down()
    w.at(1_000)
    value(store.take("u"))
    expect(value(store.retake("u", 1_000))).toEqual({ _tag: "Taken", at: 1_000 })
    w.at(30_000)
    expect(value(store.retake("u", 20_000))).toEqual({ _tag: "Taken", at: 20_000 })
    w.at(61_000)
    expect(value(store.retake("u", 30_000))).toEqual({ _tag: "Taken", at: 61_000 })
    expect(w.log).toEqual([
      "warn down",
      "memory take u",
      "memory retake u 1000",
      "warn down",
      "warn down",
      "memory take u"
    ])
  })

  it("L2 a used-up window goes to both stores; a refund of a creation counted in Redis passes its failure over", () => {
    const w = world()
    const store = FallbackStores.counts(w.effects, w.counts("shared"), w.counts("memory"))
    w.down()
    value(store.exhaust("u", "minute"))
    value(store.refund("u", 1_000))
    value(store.usedUp("u"))
    expect(w.log).toEqual(["warn down", "memory exhaust u minute", "warn down", "warn down", "memory usedUp u"])
  })
})
