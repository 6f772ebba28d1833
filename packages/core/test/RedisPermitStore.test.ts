/**
 * The Redis store of the pacing permits as both lines serve it, over effects that run at once when
 * called (a thunk each, a failure thrown): each call answered as Redis would (or failed), every step
 * recorded. Redis itself runs the scripts in the clients' suites.
 */
import { describe, expect, it } from "vitest"
import * as RedisPermitBook from "../src/RedisPermitBook.js"
import type * as RedisPermitPlan from "../src/RedisPermitPlan.js"
import * as RedisPermitStore from "../src/RedisPermitStore.js"
import type * as RedisScripts from "../src/RedisScripts.js"

/** An effect that runs at once when called, and fails by throwing. */
interface Thunk extends RedisPermitStore.TypeLambda {
  readonly type: () => this["A"]
}

interface Waiter {
  grant?: RedisPermitPlan.Grant<Waiter>
  error?: string
}

/** A take script's reply: the wait in microseconds, then each permit's name and delay in microseconds. */
const takeReply = (waitMillis: number, granted: ReadonlyArray<[string, number]>) => [
  waitMillis * 1000,
  ...granted.flatMap(([name, delayMillis]) => [name, delayMillis * 1000])
]

/** The store over thunks, each call answered by `answer` (a string fails it); `steps` records them. */
const setup = (answer: (call: RedisScripts.Call) => RedisScripts.Reply | string, sleeps = Infinity) => {
  const steps: Array<string> = []
  let now = 0
  let slept = 0
  const { renewing, store } = RedisPermitStore.make<Thunk, Waiter, string>({
    clock: () => now,
    flatMap: (self, f) => () => f(self())(),
    map: (self, f) => () => f(self()),
    match: (self, onFailure, onSuccess) => () => {
      try {
        return onSuccess(self())
      } catch (error) {
        return onFailure(error as never)
      }
    },
    void: () => undefined,
    sleep: (millis) => () => {
      if (slept++ >= sleeps) throw "stopped"
      steps.push(`sleep ${millis}`)
      now += millis
    },
    run: (call) => () => {
      const reply = answer(call)
      steps.push(`run ${call.script.replace("communityApi", "")}${typeof reply === "string" ? " failed" : ""}`)
      if (typeof reply === "string") throw reply
      return reply
    },
    waiter: () => ({}),
    wake: (waiter, grant) => () => {
      waiter.grant = grant
    },
    fail: (waiter, error) => {
      waiter.error = error
    },
    await: (waiter) => () => {
      if (waiter.grant !== undefined) return waiter.grant
      throw waiter.error ?? "never handed"
    },
    guard: (self) => self,
    mask: (body) => body((self) => self),
    spawn: (self) => self,
    fork: (self) => self
  }, { prefix: "t:", limit: 30, leaseMillis: 3_000, kept: 3, processId: "p" })
  return { renewing, steps, store }
}

describe("RedisPermitStore", () => {
  it("L1 a take asks Redis for the waiter, waits the permit's delay and hands it; a release gives it back", () => {
    const { steps, store } = setup((call) =>
      call.script === "communityApiTakePermits" ? takeReply(0, [["p-0-1", 12]]) : [1]
    )
    const permit = store.take("u", "batch")()
    expect(permit.user).toBe("u")
    expect(store.limit).toBe(30)
    store.release(permit, RedisPermitBook.unused)()
    expect(steps).toEqual(["run TakePermits", "sleep 12", "run ReleasePermit"])
  })

  it("L1 a take that Redis does not answer fails with the store's error (fail closed), and the take is given back", () => {
    const { steps, store } = setup((call) => call.script === "communityApiTakePermits" ? "down" : [0])
    expect(() => store.take("u")()).toThrow("down")
    expect(steps).toEqual(["run TakePermits failed", "run ReturnTake"])
  })

  it("L1 the budget reads the user's permits in Redis; a block is sent to Redis", () => {
    const calls: Array<RedisScripts.Call> = []
    const { store } = setup((call) => {
      calls.push(call)
      return [0, 0, 0]
    })
    store.block("u", 1_500)()
    expect(calls.map((call) => call.script)).toEqual(["communityApiBlockUser"])
    expect(store.budget("u")()).toMatchObject({ limit: 30 })
    expect(calls[1]?.script).toBe("communityApiReadPermits")
  })

  it("L1 the renewal loop sleeps a third of the lease before each renewal turn, for ever", () => {
    const { renewing, steps } = setup(() => [1], 2)
    expect(() => renewing()).toThrow("stopped")
    expect(steps).toEqual(["sleep 1000", "sleep 1000"])
  })
})
