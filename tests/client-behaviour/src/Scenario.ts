/**
 * Scenarios: a behaviour of the client, written once, each titled with the rule IDs it proves, as a
 * test is. Each line's client registers every suite with {@link register}; the conformance table
 * reads the titles of `scenario(…)` as tests of both lines.
 */
import assert from "node:assert/strict"
import type { Call, Failure, Line, Outcome, Reply } from "./Driver.js"

/** One behaviour. */
export interface Scenario {
  readonly title: string
  readonly run: (line: Line) => Promise<void>
  /** A longer time limit than the runner's default, in milliseconds. */
  readonly timeout?: number
}

/** The scenarios of one file, under its name. */
export interface Suite {
  readonly name: string
  readonly scenarios: ReadonlyArray<Scenario>
}

export const scenario = (title: string, run: (line: Line) => Promise<void>, timeout?: number): Scenario =>
  timeout === undefined ? { title, run } : { title, run, timeout }

export const suite = (name: string, scenarios: ReadonlyArray<Scenario>): Suite => ({ name, scenarios })

/** The test functions of a runner: vitest 3 and vitest 5 alike. */
export interface Runner {
  readonly describe: (name: string, body: () => void) => void
  readonly it: (name: string, body: () => Promise<void>, timeout?: number) => void
}

/**
 * Registers every scenario of `suite` as a test of `line`, each ending the worlds it made. A line runs
 * a suite from its test file of the same name (`Retry.ts` from `test/Retry.test.ts`), so that its
 * runner spreads the suites over its workers and places the costly ones as the package says.
 */
export const register = (suite: Suite, line: Line, runner: Runner): void => {
  runner.describe(suite.name, () => {
    for (const one of suite.scenarios) {
      runner.it(one.title, async () => {
        try {
          await one.run(line)
        } finally {
          await line.dispose()
        }
      }, one.timeout)
    }
  })
}

// Replies of a scripted server.

/** What a scripted server answers to users/me in most scenarios. */
export const me = { user_id: 7, auth: "token", client_id: "app" }

/** `{status: "ok", response}`; without a response, `{status: "ok"}`. */
export const ok = (response?: unknown): Reply => ({
  _tag: "Json",
  body: response === undefined ? { status: "ok" } : { status: "ok", response }
})

/** `{status: "error", error, error_code}`. */
export const error = (code: number, text = "ошибка"): Reply => ({
  _tag: "Json",
  body: { status: "error", error: text, error_code: code }
})

/** Any JSON body. */
export const json = (body: unknown): Reply => ({ _tag: "Json", body })

/** A text body, of any content type and status. */
export const text = (body: string, contentType = "application/json", status = 200): Reply => ({
  _tag: "Text",
  text: body,
  contentType,
  status
})

/** The connection dropped. */
export const drop = (reason = "connection dropped"): Reply => ({ _tag: "Drop", reason })

/** Waits `millis` on the world's clock, then replies. */
export const wait = (millis: number, then: Reply | ((at: number) => Reply)): Reply => ({ _tag: "Wait", millis, then })

// Reading outcomes.

const describeOutcome = (outcome: Outcome): string =>
  outcome._tag === "Failure"
    ? `failed with ${outcome.error._tag}: ${outcome.error.message}`
    : outcome._tag === "Defect"
    ? `died: ${String(outcome.defect)}`
    : outcome._tag === "Interrupted"
    ? "was interrupted"
    : `succeeded with ${JSON.stringify(outcome.value)}`

/** The value of a call that must succeed. */
export const succeeded = async <A>(call: Call<A> | Promise<Outcome<A>>): Promise<A> => {
  const outcome = await call
  if (outcome._tag !== "Success") assert.fail(`the call ${describeOutcome(outcome)}`)
  return outcome.value
}

/** The typed error of a call that must fail. */
export const failed = async (call: Call | Promise<Outcome>): Promise<Failure> => {
  const outcome = await call
  if (outcome._tag !== "Failure") assert.fail(`the call ${describeOutcome(outcome)}, where a typed failure was due`)
  return outcome.error
}

/** Asserts that `failure` is the creation quota's refusal of `window`, resetting at `resetsAt` (epoch milliseconds) when told. */
export const quotaRefusal = (line: Line, failure: Failure, window: "minute" | "day", resetsAt?: number): void => {
  assert.equal(failure._tag, "CreationQuotaExceeded")
  assert.equal(failure["window"], window)
  if (resetsAt !== undefined) assert.equal(line.epochMillis(failure["resetsAt"]), resetsAt)
}

/** The tag of a call's typed error. */
export const failedWith = async (call: Call | Promise<Outcome>): Promise<string> => (await failed(call))._tag

/** The error code of a call that must fail with an API error. */
export const codeOf = async (call: Call | Promise<Outcome>): Promise<unknown> => (await failed(call))["code"]

export { assert }
