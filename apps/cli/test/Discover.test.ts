/**
 * `community-api verify --discover` as a user runs it, in process against the sandbox on a port that
 * answers declared bodies for undocumented reading operations (one of them drifted): each draft's
 * JSON Schema accepts every answer it was inferred from (checked with a real JSON Schema validator),
 * its Effect Schema source is the contract's form, texts are made up unless asked, and anything that
 * is not an undocumented read is refused before any call (the server's log tells).
 */
import * as Drift from "@community-api/core/Drift"
import * as DemoFixture from "@community-api/server/DemoFixture"
import type * as Faults from "@community-api/server/Faults"
import { describe, expect, it } from "@effect/vitest"
import { Ajv } from "ajv"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import type * as Discover from "../src/Discover.js"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"
import { expectNoToken } from "./support/Outcome.js"
import * as Sandbox from "./support/Sandbox.js"

const { mainCommunity, tokens } = DemoFixture

/** A few calls paced at the sandbox's 30 a second: well under a second, more on a busy machine. */
const runBound = 60_000

const id = (n: number) => n.toString(16).padStart(24, "0")

/** What the service would answer, as declared to the sandbox: the steps of a bot, a page of funnels. */
const undocumentedAnswers: Faults.UndocumentedAnswers = {
  "bots/getSteps": [
    { id: id(1), type: "text", title: "Hello, Anna Petrova", delay: null },
    { id: id(2), type: "delay", title: "Wait a day", delay: 86400, next: id(1) },
    { id: id(3), type: "text", title: "Bye", delay: null }
  ],
  "funnels/get": { items: [{ id: id(9), name: "Onboarding", steps: [{ title: "Start", count: 4 }] }], total: 1 }
}

/** The funnels drifted on top: an item gains a field the declared body does not have. */
const drift: Drift.Drift = [{ _tag: "Add", operation: "funnels/get", at: "response.items[].stage", value: 2 }]

/** The `response` the client gets for `operation`: the declared body as the drift alters it. */
const answerOf = (operation: string) =>
  (Drift.apply(drift, operation, { status: "ok", response: undocumentedAnswers[operation]! }) as {
    readonly response: unknown
  }).response

const place = [`group_id:=${mainCommunity.group_id}`, `channel=${mainCommunity.channel}`]
const params = (words: ReadonlyArray<string>) => words.flatMap((word) => ["--param", word])

const operationsOf = (stdout: string) =>
  (JSON.parse(stdout) as { readonly operations: ReadonlyArray<Discover.Discovered> }).operations

describe("verify --discover against declared answers", () => {
  const served: Array<string> = []
  const sandbox = Sandbox.sandboxOnPort({
    undocumentedAnswers,
    drift,
    onRequest: (entry) => void served.push(entry.path)
  })

  it(
    "E17: each draft's JSON Schema accepts every answer it was inferred from; one call per value of a repeated parameter",
    async () => {
      const before = served.length
      const result = await InProcess.run(
        [
          "verify",
          "--json",
          "--keep-personal-data",
          "--discover",
          "bots/getSteps",
          "--discover",
          "funnels/get",
          ...params([...place, `bot_id=${id(5)}`, `bot_id=${id(6)}`])
        ],
        { env: sandbox.env(tokens.owner) }
      )
      expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
      const operations = operationsOf(result.stdout)
      expect(operations.map((o) => [o.operation, o.calls, o.draft?.answers])).toEqual([
        ["bots/getSteps", 2, 2],
        ["funnels/get", 2, 2]
      ])
      expect(served.length - before).toBe(4)
      const ajv = new Ajv({ strict: true, allErrors: true })
      for (const operation of operations) {
        const validate = ajv.compile(operation.draft!.response!)
        const answer = answerOf(operation.operation)
        expect(validate(answer), JSON.stringify(validate.errors)).toBe(true)
      }
      const [steps, funnels] = operations
      // The rules at work: a set of repeated kinds, null beside a type, a field some items lack.
      expect(steps!.draft!.response).toEqual({
        type: "array",
        items: {
          type: "object",
          properties: {
            id: { type: "string", pattern: "^[0-9a-f]{24}$" },
            type: { type: "string", enum: ["delay", "text"] },
            title: { type: "string" },
            delay: { type: ["integer", "null"] },
            next: { type: "string", pattern: "^[0-9a-f]{24}$" }
          },
          required: ["id", "type", "title", "delay"]
        }
      })
      expect(funnels!.draft!.response).toMatchObject({
        properties: { items: { items: { properties: { stage: { type: "integer" } } } } }
      })
      // The parameters sent: digits or numbers are the wire's integers.
      expect(steps!.draft!.declaration).toContain("    payload: Schema.Struct({\n      group_id: WireInt,")
      expect(steps!.draft!.declaration).toContain("      type: Schema.Literal(\"delay\", \"text\"),")
      expect(steps!.draft!.declaration).toContain("      next: Schema.optional(ObjectId)")
      expectNoToken(result, tokens.owner)
    },
    runBound
  )

  it("E17: the readable drafts, written to --out; the answers' texts made up unless asked", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "discover-"))
    const out = path.join(dir, "drafts.txt")
    const result = await InProcess.run(
      ["verify", "--discover", "bots/getSteps", ...params([...place, `bot_id=${id(5)}`]), "--out", out],
      { env: sandbox.env(tokens.owner) }
    )
    expect(result.code, result.stderr).toBe(ExitCode.kinds.success.code)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain(`The drafts are in ${out}.`)
    const text = fs.readFileSync(out, "utf8")
    fs.rmSync(dir, { recursive: true })
    expect(text).toMatch(/^Discovered 1 operation in 1 call: drafts to review, nothing applied\./)
    expect(text).toContain("== bots/getSteps: 1 answer of 1 call")
    expect(text).toContain("JSON Schema of the response:")
    expect(text).toContain("In lines/effect3/schema/src/operations/bots.ts it takes the place of `getSteps: {}`")
    expect(text).toContain("getSteps: {\n  assumed: {")
    // Made up: the kinds of step became other words of the same shape.
    expect(text).not.toContain("\"text\"")
    expect(text).not.toContain("Anna")
    expectNoToken(result, tokens.owner)
  }, runBound)

  it(
    "E17: an undocumented read with no declared body answers 6: the drafts of the others, then its exit code",
    async () => {
      const result = await InProcess.run(
        ["verify", "--json", "--discover", "funnels/get", "--discover", "stats/getAdsSubscribes", ...params(place)],
        { env: sandbox.env(tokens.owner) }
      )
      expect(result.code).toBe(ExitCode.kinds.parameter.code)
      const operations = operationsOf(result.stdout)
      expect(operations.map((o) => [o.operation, o.draft === undefined, o.errors])).toEqual([
        ["funnels/get", false, []],
        ["stats/getAdsSubscribes", true, [{ code: 6, calls: 1 }]]
      ])
      expect(result.stderr.trim().split("\n")).toHaveLength(1)
    },
    runBound
  )

  it(
    "E17: a write, a documented operation or an unknown one is refused before any call, with the usage exit code",
    async () => {
      for (const operation of ["bots/addUser", "vars/set", "bots/get", "bots/nothing"]) {
        const before = served.length
        const result = await InProcess.run(
          ["verify", "--discover", "bots/getSteps", "--discover", operation, ...params(place)],
          { env: sandbox.env(tokens.owner) }
        )
        expect(result.code).toBe(ExitCode.kinds.usage.code)
        expect(result.stdout).toBe("")
        expect(result.stderr.trim().split("\n")).toEqual([expect.stringContaining(`verify --discover ${operation}: `)])
        expect(result.stderr).toContain("nothing was sent")
        expect(served.length).toBe(before)
      }
    },
    runBound
  )

  it("--param without --discover is a usage error", async () => {
    const result = await InProcess.run(["verify", "--param", "a=1"], { env: sandbox.env(tokens.owner) })
    expect(result.code).toBe(ExitCode.kinds.usage.code)
    expect(result.stderr).toContain("verify --param goes with --discover OPERATION")
  }, runBound)
})
