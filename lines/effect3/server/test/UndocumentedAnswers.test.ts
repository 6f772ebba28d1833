/**
 * Declared answers on a real port: an undocumented reading operation the server does not model
 * answers the body declared for it (after authentication and access, in the world and in a tenant),
 * one with no declared body still answers 6, and declared answers for an operation that may not have
 * one stop the server being made, and the sandbox with one line.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Either, Exit } from "effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as DemoFixture from "../src/DemoFixture.js"
import * as Faults from "../src/Faults.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as Sandbox from "../src/Sandbox.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const main = DemoFixture.mainCommunity

const steps = [{ id: "0123456789abcdef01234567", type: "text", title: "Hello" }]
const undocumentedAnswers: Faults.UndocumentedAnswers = {
  "bots/getSteps": steps,
  "funnels/get": { items: [], total: 0 }
}

const call = (
  portNumber: number,
  prefix: string,
  path: string,
  body: unknown,
  token: string = DemoFixture.tokens.owner
) =>
  send(portNumber, {
    path: `${prefix}/external-api/v2/${path}`,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

describe("declared answers of undocumented operations", () => {
  it.live(
    "E17: a declared body is answered, in the world and in a tenant; an undocumented read without one still answers 6",
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        for (const prefix of ["", "/_tenants/declared"]) {
          expect(okOf(yield* call(portNumber, prefix, "bots/getSteps", { ...main, bot_id: "x" }))).toEqual(steps)
          expect(okOf(yield* call(portNumber, prefix, "funnels/get", main))).toEqual({ items: [], total: 0 })
          expect(errorOf(yield* call(portNumber, prefix, "stats/getAdsSubscribes", main)).code).toBe(6)
          // Authentication first, as for every operation.
          expect(
            errorOf(yield* call(portNumber, prefix, "bots/getSteps", main, "thp_wrong_token_0000000000000000")).code
          )
            .toBe(4)
        }
      }).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0, undocumentedAnswers })))
  )

  it.live("E17 A8: access is checked before a declared body: a role without the section answers 8", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      expect(errorOf(yield* call(portNumber, "", "bots/getSteps", main, DemoFixture.tokens.noRole)).code).toBe(8)
    }).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0, undocumentedAnswers }))))

  it("E17: only undocumented reading operations the server does not model may have a declared body", () => {
    const refusal = (operation: string) =>
      Either.match(ReferenceServer.checkUndocumentedAnswers({ [operation]: {} }), {
        onLeft: (error) => `${error._tag}: ${error.message}`,
        onRight: () => "accepted"
      })
    expect(refusal("bots/getSteps")).toBe("accepted")
    expect(refusal("bots/nothing")).toBe(
      "UndocumentedAnswersError: a declared answer for bots/nothing, which is no operation of the contract"
    )
    expect(refusal("bots/addUser")).toContain("which does not only read")
    expect(refusal("bots/get")).toContain("which is documented")
    expect(refusal("lists/get")).toContain("which is modelled")
  })

  it.effect("a server made with a wrong declared answer dies with the typed error before it answers", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(ReferenceServer.make({ undocumentedAnswers: { "vars/set": {} } }))
      expect(Exit.isFailure(exit)).toBe(true)
      const defect = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect(defect).toBeInstanceOf(Faults.UndocumentedAnswersError)
    }))

  it.effect("the sandbox's --answers: a wrong operation or a file that is not JSON is one usage line", () =>
    Effect.gen(function*() {
      const directory = Fs.mkdtempSync(Path.join(Os.tmpdir(), "answers-"))
      const write = (name: string, text: string) => {
        const file = Path.join(directory, name)
        Fs.writeFileSync(file, text)
        return file
      }
      const refused = (file: string) =>
        Effect.map(Effect.flip(Sandbox.run(["--port", "0", "--answers", file], {})), String)
      expect(yield* refused(write("write.json", JSON.stringify({ "bots/removeUser": {} })))).toContain(
        "--answers: a declared answer for bots/removeUser, which does not only read"
      )
      expect(yield* refused(write("bad.json", "{"))).toContain("--answers ")
      expect(yield* refused(write("list.json", "[1]"))).toContain("--answers: ")
      Fs.rmSync(directory, { recursive: true })
    }))
})
