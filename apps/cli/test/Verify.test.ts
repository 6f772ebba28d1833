/**
 * `community-api verify` as a user runs it, in process against the sandbox on a port: the plain demo
 * world conforms to the contract (exit 0), a world served with a declared drift is reported with
 * exactly the declared differences (exit 7), and a refused token, a role that reaches nothing or an API
 * that does not answer end with one line and the exit code of that failure. Only reading operations
 * are sent (the server's log of requests tells); the token shows nowhere.
 */
import type * as Drift from "@community-api/core/Drift"
import * as CoreOperations from "@community-api/core/Operations"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import type * as Verification from "../src/Verification.js"
import * as InProcess from "./support/InProcess.js"
import { expectNoToken, expectProgressBars } from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"

const { tokens } = DemoFixture

/** A run of a hundred-odd calls, paced at the sandbox's 30 a second: seconds, more on a busy machine. */
const runBound = 60_000

const readingPaths = new Set<string>(CoreOperations.reading.map((op) => op.path))

/** The operation of a request's path: `/external-api/v2/users/me` is `users/me`. */
const operationOf = (path: string) => path.replace(/^.*\/external-api\/(v2\/)?/, "").replace(/\?.*$/, "")

const reportOf = (stdout: string) => JSON.parse(stdout) as Verification.Report

/** Each difference of the report as one line: `operation Kind path-or-code`. */
const differencesOf = (report: Verification.Report) =>
  report.operations.flatMap((o) =>
    o.verdict._tag === "Conforms" ?
      [] :
      o.verdict.differences.map((d) => `${o.operation} ${d._tag} ${"path" in d ? d.path : "code" in d ? d.code : ""}`)
  ).sort()

describe("verify against the plain sandbox", () => {
  const served: Array<string> = []
  const sandbox = Sandbox.sandboxOnPort({ onRequest: (entry) => void served.push(entry.path) })

  it(
    "E3 E17 R4 R6 R10: every operation reached conforms, every assumption reached is confirmed, exit 0; reads only, no token in the output",
    async () => {
      const result = await InProcess.run(["verify", "--json"], { env: sandbox.env(tokens.owner) })
      expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
      const report = reportOf(result.stdout)
      expect(report.conforms).toBe(true)
      expect(report.operations.filter((o) => o.verdict._tag !== "Conforms")).toEqual([])
      // The owner reaches every reading operation but the two no read names an id for.
      expect(report.operations.length).toBeGreaterThanOrEqual(CoreOperations.reading.length - 2)
      const judgements = report.assumptions.map((a) => a.judgement._tag)
      expect(judgements).not.toContain("Refuted")
      // Only the method names of two writes, which verify never sends, stay out of reach.
      expect(report.assumptions.filter((a) => a.judgement._tag === "NotReached").map((a) => a.id)).toEqual([
        "method-names"
      ])
      expect(served.length).toBe(report.calls)
      expect(served.map(operationOf).filter((path) => !readingPaths.has(path))).toEqual([])
      expectNoToken(result, tokens.owner)
    },
    runBound
  )

  it("the readable report: each operation conforms, each assumption in words, the outcome last", async () => {
    const result = await InProcess.run(["verify"], { env: sandbox.env(tokens.owner) })
    expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
    expect(result.stdout).toMatch(/^Verified the account against the contract: \d+ calls/)
    expect(result.stdout).toContain("  users/me: conforms (1 call)")
    expect(result.stdout).toContain("  mailing-type: confirmed")
    expect(result.stdout).toContain("  method-names: not reached: bots/removeUser was not called")
    expect(result.stdout.trimEnd().endsWith("Everything the account answered conforms to the contract.")).toBe(true)
    expectNoToken(result, tokens.owner)
  }, runBound)

  it("A4: a refused token ends with one line and the access exit code, no report", async () => {
    const wrong = "thp_wrong_token_0000000000000000"
    const result = await InProcess.run(["verify"], { env: sandbox.env(wrong) })
    expect(result.code).toBe(ExitCode.kinds.access.code)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expect(result.stderr).toContain("InvalidTokenError")
    expectNoToken(result, wrong)
  }, runBound)

  it("a role that reaches nothing ends with one line and the access exit code, no report", async () => {
    const result = await InProcess.run(["verify"], { env: sandbox.env(tokens.noRole) })
    expect(result.code).toBe(ExitCode.kinds.access.code)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining("reaches nothing to verify")])
    expectNoToken(result, tokens.noRole)
  }, runBound)
})

describe("verify on the embedded sandbox", () => {
  it("a progress bar of the calls on a terminal, erased before the report", async () => {
    const result = await InProcess.run(["verify"], { terminal: { stderr: true } })
    expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
    expectProgressBars(result.stderr, "calls")
  }, runBound)
})

describe("verify against an API that does not answer", () => {
  it("one line and the transient exit code, no report", async () => {
    const result = await InProcess.run(["verify", "--retries", "0"], {
      env: { COMMUNITY_API_BASE_URL: "http://127.0.0.1:9/external-api/v2", COMMUNITY_API_TOKEN: tokens.owner }
    })
    expect(result.code).toBe(ExitCode.kinds.transient.code)
    expect(result.stdout).toBe("")
    expect(result.stderr.trim().split("\n")).toHaveLength(1)
    expectNoToken(result, tokens.owner)
  }, runBound)
})

/** One change of each kind, for named operations. */
const drift: Drift.Drift = [
  { _tag: "Rename", operation: "lists/get", at: "response.items[].name", to: "title" },
  { _tag: "Remove", operation: "mailings/get", at: "response.items[].delivered" },
  { _tag: "Add", operation: "landings/get", at: "response.items[].views", value: 3 },
  { _tag: "Set", operation: "mailings/get", at: "response.items[].type", value: "promo" },
  { _tag: "Set", operation: "bots/get", at: "response.items[].active", value: 2 },
  { _tag: "ErrorCode", operation: "globalVars/list", code: 42 }
]

describe("verify against a drifted world", () => {
  const sandbox = Sandbox.sandboxOnPort({ drift })

  it("R6: exactly the declared differences, no more, the assumptions they break refuted, and exit 7", async () => {
    const result = await InProcess.run(["verify", "--json"], { env: sandbox.env(tokens.owner) })
    expect(result.code, result.stderr).toBe(ExitCode.kinds.differs.code)
    const report = reportOf(result.stdout)
    expect(report.conforms).toBe(false)
    expect(differencesOf(report)).toEqual([
      "bots/get OutsideSet response.items[].active",
      "globalVars/list UndeclaredErrorCode 42",
      "landings/get UnknownField response.items[].views",
      "lists/get MissingField response.items[].name",
      "lists/get UnknownField response.items[].title",
      "mailings/get MissingField response.items[].delivered",
      "mailings/get TypeMismatch response.items[].type"
    ])
    const refuted = report.assumptions.filter((a) => a.judgement._tag === "Refuted").map((a) => a.id)
    expect(refuted).toEqual(["lists-get", "mailing-type"])
    // The report, whole, then one line on standard error that says why the exit code.
    expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining("ContractDiffers")])
    expectNoToken(result, tokens.owner)
  }, runBound)

  it("the readable report names each difference", async () => {
    const result = await InProcess.run(["verify"], { env: sandbox.env(tokens.owner) })
    expect(result.code).toBe(ExitCode.kinds.differs.code)
    expect(result.stdout).toContain("  lists/get: differs")
    expect(result.stdout).toContain("    - response.items[].title: a field the contract does not know (string)")
    expect(result.stdout).toContain("    - error 42, which it is not declared to answer")
    expect(result.stdout).toContain("  mailing-type: refuted by mailings/get: response.items[].type: string where")
    expect(result.stdout).toMatch(/5 operations differ from the contract; 2 assumptions refuted\.\s*$/)
  }, runBound)
})
