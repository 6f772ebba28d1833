/**
 * What the Redis store of the pacing permits does next, as both lines carry it out: the plans are run
 * here by a loop that answers each call as Redis would (or fails it) and records every step. Redis
 * itself runs the scripts in the clients' suites.
 */
import { describe, expect, it } from "vitest"
import type * as RedisCounts from "../src/RedisCounts.js"
import * as RedisPermitBook from "../src/RedisPermitBook.js"
import * as RedisPermitPlan from "../src/RedisPermitPlan.js"
import type * as RedisScripts from "../src/RedisScripts.js"

type Plan = RedisPermitPlan.Plan<string, string>

/** An effect that runs at once when called. */
interface Thunk extends RedisCounts.TypeLambda {
  readonly type: () => void
}

const setup = () => {
  const book = RedisPermitBook.make<string>({ prefix: "t:", limit: 30, leaseMillis: 3_000, kept: 3, processId: "p" })
  return { book, plans: RedisPermitPlan.make<string, string>(book, { leaseMillis: 3_000 }) }
}

/** A take script's reply: the wait in microseconds, then each permit's name and delay in microseconds. */
const takeReply = (waitMillis: number, granted: ReadonlyArray<[string, number]>) => [
  waitMillis * 1000,
  ...granted.flatMap(([name, delayMillis]) => [name, delayMillis * 1000])
]

/**
 * Runs `plan` from `now`, each call answered by `answer` (a string fails it), and records the steps:
 * the scripts run (short names), the sleeps, the waiters woken and failed.
 */
const perform = (
  plan: Plan,
  answer: (call: RedisScripts.Call) => RedisScripts.Reply | string,
  options: { readonly now?: number; readonly awaited?: RedisPermitPlan.Grant<string> } = {}
) => {
  const steps: Array<string> = []
  let now = options.now ?? 0
  // Carried out by the core's own `carry`, over effects that run at once: a thunk each.
  const carry = RedisPermitPlan.carry<Thunk, string, string>({
    suspend: (make) => () => make(now)(),
    run: (call, next) => () => {
      const reply = answer(call)
      steps.push(`run ${call.script.replace("communityApi", "")}${typeof reply === "string" ? " failed" : ""}`)
      next(typeof reply === "string" ? RedisPermitPlan.failed(reply) : RedisPermitPlan.replied(reply))()
    },
    sleep: (millis, next) => () => {
      steps.push(`sleep ${millis}`)
      now += millis
      next()
    },
    wake: (waiter, grant, next) => () => {
      steps.push(`wake ${waiter} ${grant.permit.name} +${grant.delayMillis}`)
      next()
    },
    fail: (waiters, error, next) => () => {
      steps.push(`fail ${waiters.join(",")}: ${error}`)
      next()
    },
    wait: (waiter, next) => () => {
      steps.push(`await ${waiter}`)
      next(options.awaited)()
    },
    done: () => undefined
  })
  carry(plan)()
  return steps
}

describe("RedisPermitPlan", () => {
  it("L1 the asking loop takes for every waiter, wakes them in the order asked, sleeps what Redis said and asks again", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    for (const [lane, waiter] of [["batch", "b0"], ["interactive", "i0"], ["batch", "b1"]] as const) {
      book.enqueue(entry, lane, waiter)
    }
    let takes = 0
    const steps = perform(
      plans.ask(entry),
      () => takes++ === 0 ? takeReply(40.5, [["p-0-1", 0], ["p-0-2", 12]]) : takeReply(0, [["p-1-1", 0]])
    )
    expect(steps).toEqual([
      "run TakePermits",
      "wake i0 p-0-1 +0",
      "wake b0 p-0-2 +12",
      "sleep 41",
      "run TakePermits",
      "wake b1 p-1-1 +0"
    ])
    // The loop ended with no one waiting: the next waiter starts it again.
    expect(book.enqueue(entry, "batch", "b2")).toBe(true)
  })

  it("L1 a permit left without a waiter (one stopped waiting meanwhile) goes back unused, in the order granted", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    book.enqueue(entry, "interactive", "b")
    const calls: Array<RedisScripts.Call> = []
    const steps = perform(plans.ask(entry), (call) => {
      calls.push(call)
      if (calls.length === 1) book.remove(entry, "interactive", "a", 1)
      return call.script === "communityApiTakePermits" ? takeReply(0, [["p-0-1", 0], ["p-0-2", 0]]) : [1]
    })
    expect(steps).toEqual(["run TakePermits", "wake b p-0-1 +0", "run ReleasePermit"])
    expect(calls[1]?.args).toEqual(["p-0-2", 0, 0])
  })

  it("L1 a take that fails fails every waiter there (fail closed), then gives the take back at once", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    book.enqueue(entry, "batch", "b")
    const steps = perform(plans.ask(entry), (call) => call.script === "communityApiTakePermits" ? "timeout" : [0])
    expect(steps).toEqual(["run TakePermits failed", "fail a,b: timeout", "run ReturnTake"])
    expect(book.pendingReturn(entry, 1)).toBeUndefined()
  })

  it("L1 a take whose return fails too is given back before the next take, and by the renewal turn", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    expect(perform(plans.ask(entry), () => "down")).toEqual([
      "run TakePermits failed",
      "fail a: down",
      "run ReturnTake failed",
      "fail : down"
    ])
    // Still pending: the renewal turn tries it again (no permit in flight to renew).
    expect(perform(plans.renew, () => "down", { now: 1_000 })).toEqual(["run ReturnTake failed"])
    // The next take gives it back first; a return that fails fails the waiters, the take not sent.
    book.enqueue(entry, "batch", "b")
    expect(perform(plans.ask(entry), () => "down", { now: 1_000 })).toEqual([
      "run ReturnTake failed",
      "fail b: down",
      "run ReturnTake failed",
      "fail : down"
    ])
    book.enqueue(entry, "batch", "c")
    expect(
      perform(
        plans.ask(entry),
        (call) => call.script === "communityApiTakePermits" ? takeReply(0, [["p-3-1", 0]]) : [0],
        { now: 1_000 }
      )
    ).toEqual([
      "run ReturnTake",
      "run TakePermits",
      "wake c p-3-1 +0"
    ])
    // A lease after the take failed, its permits have lapsed: nothing is left to give back.
    expect(perform(plans.renew, () => [0], { now: 5_000 })).toEqual(["run RenewPermits"])
  })

  it("L1 the renewal turn renews each user's permits in flight every third of the lease, until given back", () => {
    const { book, plans } = setup()
    expect(plans.renewEveryMillis).toBe(1_000)
    const entry = book.entry("u", 0)
    book.enqueue(entry, "interactive", "a")
    const steps = perform(plans.ask(entry), () => takeReply(0, [["p-0-1", 0]]))
    expect(steps).toEqual(["run TakePermits", "wake a p-0-1 +0"])
    const permit: RedisPermitPlan.Permit<string> = { user: "u", entry, name: "p-0-1" }
    expect(perform(plans.renew, () => [1])).toEqual(["run RenewPermits"])
    const calls: Array<RedisScripts.Call> = []
    expect(perform(plans.giveBack(permit, { afterAnswerMillis: 1_020, afterTakeMillis: 0 }), (call) => {
      calls.push(call)
      return [0]
    })).toEqual(["run ReleasePermit"])
    expect(calls[0]?.args).toEqual(["p-0-1", 1_020_000, 0])
    expect(perform(plans.renew, () => [1])).toEqual([])
  })

  it("L1 a granted permit waits its delay, then this process's own block of the user", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    const grant = { permit: { user: "u", entry, name: "p-0-1" }, delayMillis: 12 }
    expect(perform(plans.ready(grant), () => [0])).toEqual(["sleep 12"])
    book.block("u", 1_020, 0)
    expect(perform(plans.ready(grant), () => [0])).toEqual(["sleep 12", "sleep 1008"])
  })

  it("L1 a waiter that stops waiting leaves the queue; handed a permit meanwhile, it gives the permit back unused", () => {
    const { book, plans } = setup()
    const entry = book.entry("u", 0)
    book.enqueue(entry, "batch", "a")
    expect(perform(plans.withdraw(entry, "batch", "a"), () => [0])).toEqual([])
    const grant = { permit: { user: "u", entry, name: "p-0-1" }, delayMillis: 0 }
    expect(perform(plans.withdraw(entry, "batch", "a"), () => [0], { awaited: grant })).toEqual([
      "await a",
      "run ReleasePermit"
    ])
    // Failed meanwhile: nothing to give back.
    expect(perform(plans.withdraw(entry, "batch", "a"), () => [0])).toEqual(["await a"])
  })

  it("the process's name among the user's processes is the random number in base 36, without a sign", () => {
    expect(RedisPermitBook.processId(-1295)).toBe("zz")
  })
})
