/**
 * The texts users read say things in words: the IDs of the spec's rules ("E17", "(A9)", "L2") belong
 * in test names and `docs/conformance.md`, never in the help of a command, an error line, the MCP
 * server's tools and instructions, or the OpenAPI document. Each is read here as its reader gets it:
 * the help and the errors through the executable's program, the tools through the MCP protocol, the
 * OpenAPI document as generated and as committed.
 */
import { Operations } from "@community-api/schema"
import * as OpenApi from "@community-api/schema/OpenApi"
import { CliConfig, CommandDescriptor, HelpDoc } from "@effect/cli"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as Commands from "../src/Commands.js"
import * as ExitCode from "../src/ExitCode.js"
import * as Route from "../src/Route.js"
import * as InProcess from "./support/InProcess.js"
import * as McpSession from "./support/McpSession.js"

/** A rule ID of the spec, as `docs/rules.md` numbers them: C1, E17, A9, L2, R11, S5, V3, X1. */
const ruleId = /\b[CRSEALVX][0-9]{1,2}\b/g

/** The rule IDs in `text`, with a little of what surrounds each, to find them by. */
const ruleIds = (text: string): ReadonlyArray<string> =>
  [...text.matchAll(ruleId)].map((match) => text.slice(Math.max(0, match.index - 40), match.index + 10))

/** Every string under `keys` in a JSON value, outside `examples` (demo data, not prose). */
const texts = (json: unknown, keys: ReadonlyArray<string>): ReadonlyArray<string> => {
  if (Array.isArray(json)) return json.flatMap((item) => texts(item, keys))
  if (typeof json !== "object" || json === null) return []
  return Object.entries(json).flatMap(([key, value]) =>
    key === "examples" ? [] : typeof value === "string" ? (keys.includes(key) ? [value] : []) : texts(value, keys)
  )
}

describe("the command line", () => {
  it("the help of every command and section has no rule ID", async () => {
    const commands = [
      [],
      ...Route.commandSections.map((section) => [section.name]),
      ...Operations.documented.map((op) => [op.section, op.method]),
      [Route.recordName],
      [Route.limitsName],
      [Route.callName],
      [Route.serveName],
      [Route.mcpName]
    ]
    for (const words of commands) {
      const help = await InProcess.run([...words, "--help"])
      expect(help.code, words.join(" ")).toBe(ExitCode.kinds.success.code)
      expect(help.stdout.length, words.join(" ")).toBeGreaterThan(0)
      expect(ruleIds(help.stdout), words.join(" ")).toEqual([])
    }
  })

  it("the help @effect/cli writes for the wizard and completions has no rule ID", () => {
    const help = HelpDoc.toAnsiText(CommandDescriptor.getHelp(Commands.root.descriptor, CliConfig.defaultConfig))
    expect(help).toContain(Commands.callSummary)
    expect(ruleIds(help)).toEqual([])
    for (const op of Operations.documented) expect(ruleIds(Commands.describeOperation(op)), op.path).toEqual([])
  })

  it("the errors that point to call, for each operation called by path, have no rule ID", async () => {
    const sections = Route.sections.filter((section) => section.documented.length === 0).map((s) => [s.name])
    const methods = Operations.undocumented.map((op) => [op.section, op.method])
    for (const words of [...sections, ...methods]) {
      const result = await InProcess.run(words)
      expect(result.code, words.join(" ")).toBe(ExitCode.kinds.usage.code)
      expect(result.stderr, words.join(" ")).toContain(`${Route.executable} ${Route.callName}`)
      expect(ruleIds(result.stderr), words.join(" ")).toEqual([])
    }
  })
})

describe("the MCP server", () => {
  it.live(
    "its instructions and every tool's description, title and input schema have no rule ID",
    () =>
      Effect.gen(function*() {
        const { exitCode, initialize, tools } = yield* McpSession.initializeAndListTools
        expect(exitCode).toBe(ExitCode.kinds.success.code)
        const instructions = initialize?.instructions as string
        expect(instructions).toContain("call")
        expect(ruleIds(instructions)).toEqual([])
        // One per documented operation, call and limits_get.
        expect(tools.length).toBe(Operations.documented.length + 2)
        for (const tool of tools) expect(ruleIds(JSON.stringify(tool)), tool.name).toEqual([])
      }),
    60_000
  )
})

describe("the OpenAPI document", () => {
  const keys = ["description", "summary", "title", "x-assumed"]

  it("its descriptions and summaries have no rule ID, as generated and as committed", () => {
    const committed = JSON.parse(
      readFileSync(fileURLToPath(new URL("../../../lines/effect3/schema/openapi.json", import.meta.url)), "utf8")
    ) as unknown
    for (const document of [OpenApi.make(), committed]) {
      const prose = texts(document, keys)
      expect(prose.length).toBeGreaterThan(Operations.all.length)
      expect(prose.flatMap(ruleIds)).toEqual([])
    }
  })
})
