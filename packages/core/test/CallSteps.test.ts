/**
 * The steps of a call over a line's effects (`CallSteps`), run here over synchronous effects: the
 * envelope of an answer read into a typed error with the admission's step after it, and the attempts
 * as the call's plan decides them (again after 5, on the schedule, an unknown outcome, or fail).
 */
import { describe, expect, it } from "vitest"
import * as CallPlan from "../src/CallPlan.js"
import * as CallSteps from "../src/CallSteps.js"
import type * as RedisCounts from "../src/RedisCounts.js"

type Result<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: unknown }
/** A synchronous effect: run, it gives its value or fails with its error; a throw is a defect. */
type Sync<A> = () => Result<A>
interface F extends RedisCounts.TypeLambda {
  readonly type: Sync<this["A"]>
}

const effects: CallSteps.Effects<F> = {
  suspend: (make) => () => make()(),
  fail: (error) => () => ({ ok: false, error }),
  catchAll: (effect, f) => () => {
    const result = effect()
    return result.ok ? result : f(result.error)()
  },
  catchDefect: (effect, f) => () => {
    try {
      return effect()
    } catch (defect) {
      return f(defect)()
    }
  },
  andThen: (first, next) => () => {
    const result = first()
    return result.ok ? next() : result
  },
  flatMap: (effect, f) => () => {
    const result = effect()
    return result.ok ? f(result.value)() : result
  }
}

const succeed = <A>(value: A): Sync<A> => () => ({ ok: true, value })
const e = (code: number) => ({ _tag: `E${code}`, code })
const ordinary = { safeToRepeat: true, creation: false }
const notSafe = { safeToRepeat: false, creation: false }
const creation = { safeToRepeat: false, creation: true }

class EnvelopeError {
  constructor(readonly reason: string) {}
}

describe("CallSteps.decoded", () => {
  const world = (flags: typeof ordinary, decode: (answer: unknown) => Sync<string>) => {
    const log: Array<string> = []
    const read = CallSteps.decoded(
      effects,
      {
        isEnvelopeError: (error): error is EnvelopeError => error instanceof EnvelopeError,
        unreadable: (operation, reason) => ({ _tag: "ResponseDecodeError", operation, reason })
      },
      { ...flags, path: "bots/get" },
      decode
    )
    const admitted = {
      answer: "answer",
      giveBack: () => (log.push("give back"), { ok: true as const, value: undefined }),
      refused:
        (error: unknown) =>
        () => (log.push(`refused ${JSON.stringify(error)}`), { ok: true as const, value: undefined })
    }
    return { log, run: () => read(admitted)() }
  }

  it("C4 an answer decodes to its success, with no step of the admission", () => {
    const { log, run } = world(ordinary, (answer) => succeed(`decoded ${answer}`))
    expect(run()).toEqual({ ok: true, value: "decoded answer" })
    expect(log).toEqual([])
  })

  it("C4 an answer that is no envelope, or a decoder that throws, is unreadable: never untyped", () => {
    const notEnvelope = world(ordinary, () => effects.fail(new EnvelopeError("no ok")))
    expect(notEnvelope.run()).toEqual({
      ok: false,
      error: { _tag: "ResponseDecodeError", operation: "bots/get", reason: "no ok" }
    })
    const thrown = world(ordinary, () => {
      throw new TypeError("boom")
    })
    expect(thrown.run()).toEqual({
      ok: false,
      error: { _tag: "ResponseDecodeError", operation: "bots/get", reason: "the decoder failed: TypeError: boom" }
    })
    expect(thrown.log).toEqual([])
  })

  it("Q3 L1 error 9 gives the creation back; error 5 holds back the limit that refused it", () => {
    const nine = world(creation, () => effects.fail({ _tag: "KeyServiceUnavailableError", code: 9 }))
    expect(nine.run()).toEqual({ ok: false, error: { _tag: "KeyServiceUnavailableError", code: 9 } })
    expect(nine.log).toEqual(["give back"])
    const five = world(ordinary, () => effects.fail(e(5)))
    expect(five.run()).toEqual({ ok: false, error: e(5) })
    expect(five.log).toEqual([`refused ${JSON.stringify(e(5))}`])
    const seven = world(ordinary, () => effects.fail(e(7)))
    expect(seven.run()).toEqual({ ok: false, error: e(7) })
    expect(seven.log).toEqual([])
  })
})

describe("CallSteps.attempts", () => {
  /** A call whose attempts fail with `errors` in turn, then succeed; the schedule allows `delays`. */
  const world = (flags: typeof ordinary, errors: Array<unknown>, delays: number) => {
    const log: Array<string> = []
    let left = delays
    const retries: CallSteps.Retries<F> = {
      numbered:
        (number, last, attempt) => () => (log.push(`attempt ${number} after ${JSON.stringify(last)}`), attempt()),
      schedule: () => {
        log.push("schedule made")
        return {
          ok: true,
          value: (error) => () => (log.push(`delay after ${JSON.stringify(error)}`), { ok: true, value: left-- > 0 })
        }
      },
      unknown: (operation, reason) => ({ _tag: "OutcomeUnknownError", operation, reason })
    }
    const attempt: Sync<string> = () => {
      const error = errors.shift()
      return error === undefined ? { ok: true, value: "done" } : { ok: false, error }
    }
    const rest = (retries: Sync<string>): Sync<string> => () => (log.push("rest"), retries())
    return {
      log,
      run: () =>
        CallSteps.attempts<F, string>(effects, retries, "bots/create", CallPlan.make(flags, 2), attempt, rest)()
    }
  }

  it("X1 a first attempt that succeeds is neither numbered nor scheduled", () => {
    const { log, run } = world(ordinary, [], 3)
    expect(run()).toEqual({ ok: true, value: "done" })
    expect(log).toEqual([])
  })

  it("A6 X1 error 9 is retried on the schedule, within the rest of the call, each attempt numbered", () => {
    const { log, run } = world(ordinary, [e(9), e(9)], 3)
    expect(run()).toEqual({ ok: true, value: "done" })
    expect(log).toEqual([
      "rest",
      "schedule made",
      `delay after ${JSON.stringify(e(9))}`,
      `attempt 2 after ${JSON.stringify(e(9))}`,
      `delay after ${JSON.stringify(e(9))}`,
      `attempt 3 after ${JSON.stringify(e(9))}`
    ])
  })

  it("A6 a spent schedule fails with the last error", () => {
    const { run } = world(ordinary, [e(9), e(9)], 1)
    expect(run()).toEqual({ ok: false, error: e(9) })
  })

  it("L1 L2 error 5 is sent again at once, at most limitRetries times in a row", () => {
    const { log, run } = world(ordinary, [e(5), e(5), e(5)], 3)
    expect(run()).toEqual({ ok: false, error: e(5) })
    expect(log.filter((line) => line.startsWith("delay"))).toEqual([])
    expect(log.filter((line) => line.startsWith("attempt"))).toHaveLength(2)
  })

  it("X1 an ambiguous failure of an operation not safe to repeat is an unknown outcome; other errors fail at once", () => {
    expect(world(notSafe, [{ _tag: "TimeoutError" }], 3).run()).toEqual({
      ok: false,
      error: { _tag: "OutcomeUnknownError", operation: "bots/create", reason: "timeout" }
    })
    const seven = world(ordinary, [e(7)], 3)
    expect(seven.run()).toEqual({ ok: false, error: e(7) })
    expect(seven.log).toEqual([])
  })
})
