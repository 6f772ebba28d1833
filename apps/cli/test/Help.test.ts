/**
 * `--help` as a user reads it, through the executable's program in process: every flag described by
 * its payload field, every command by its operation, the usage line with the whole command, the
 * global flags once at the top level, and the lines wrapped to the width of the output.
 */
import { Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as Flags from "../src/Flags.js"
import * as Global from "../src/Global.js"
import * as InProcess from "./support/InProcess.js"

const { run } = InProcess

/** The help as one line: wrapping may break a description anywhere. */
const flat = (text: string) => text.replace(/\s+/g, " ")

const lines = (text: string) => text.trimEnd().split("\n")

const occurrences = (text: string, word: string) => text.split(word).length - 1

describe("help", () => {
  it("C7 C13 each flag is described by its payload field: type, bounds or values, never a generic text", async () => {
    const help = await run(["bots", "get", "--help"])
    expect(help.code).toBe(ExitCode.kinds.success.code)
    expect(help.stderr).toBe("")
    const text = flat(help.stdout)
    expect(text).toContain("channel: VK, TG, OK, MAX, CHAT or AVITO, any case")
    expect(text).toContain("count: integer 1..500, default 100, a larger value is replaced by 500")
    expect(text).toContain("offset: integer 0 or more, default 0")
    expect(text).toContain("active: 0 or 1")
  })

  it("the help of every documented operation shows each of its flags as the contract describes it", async () => {
    for (const op of Operations.documented) {
      const help = await run([op.section, op.method, "--help"])
      expect(help.code, op.path).toBe(ExitCode.kinds.success.code)
      const text = flat(help.stdout)
      for (const flag of Flags.fromPayload(op.payload)) {
        expect(text, op.path).toContain(`--${flag.name}`)
        expect(text, op.path).toContain(flag.description)
      }
      expect(text, op.path).not.toContain("A user-defined piece of text")
      expect(text, op.path).not.toContain("This setting is optional")
    }
  })

  it("A9 L2 a command is described by its summary and who may call it; a creation by the creation limit", async () => {
    const create = flat((await run(["vars", "create", "--help"])).stdout)
    expect(create).toContain(Operations.vars.create.summary)
    expect(create).toContain("employees with the users role")
    expect(create).toMatch(/creation limit: 20 a minute, 200 a day/)
    const employees = flat((await run(["groups", "getEmployees", "--help"])).stdout)
    expect(employees).toContain(Operations.groups.getEmployees.summary)
    expect(employees).toContain("the owner and admins only")
    expect(employees).not.toContain("creation limit")
  })

  it("E4 USAGE shows the whole command, its required flags bare and the others in brackets", async () => {
    const help = lines((await run(["groups", "getEmployees", "--help"])).stdout)
    const usage = help.slice(help.indexOf("USAGE") + 1, help.indexOf("", help.indexOf("USAGE")))
    expect(usage[0]).toMatch(/^ {2}community-api groups getEmployees --group-id INT/)
    expect(flat(usage.join(" "))).toContain("--group-id INT --channel VK|TG|OK|MAX|CHAT|AVITO [--count INT]")
    expect(help.join("\n")).not.toContain("$ ")
    const bots = flat((await run(["bots", "get", "--help"])).stdout)
    expect(bots).toContain("community-api bots get [--group-id INT] [--channel VK|TG|OK|MAX|CHAT|AVITO]")
  })

  it("-h is --help, after any flag; a section alone, or with --help, lists its methods", async () => {
    const long = await run(["bots", "get", "--channel", "vk", "--help"])
    const short = await run(["bots", "get", "-h"])
    expect(short.stdout).toBe(long.stdout)
    for (const args of [["bots"], ["bots", "--help"]]) {
      const section = await run(args)
      expect(section.code).toBe(ExitCode.kinds.success.code)
      const text = flat(section.stdout)
      for (const op of Object.values(Operations.bots)) {
        expect(text).toContain(op.documented ? ` ${op.method} ` : op.path)
      }
    }
  })

  it("the top level lists every command once and the global flags once; a command points to them", async () => {
    const top = await run(["--help"])
    expect(top.code).toBe(ExitCode.kinds.success.code)
    expect((await run([])).stdout).toBe(top.stdout)
    for (const op of Operations.documented) expect(top.stdout).toContain(`${op.section} ${op.method}`)
    for (const flag of Global.flags) {
      expect(occurrences(top.stdout, flag.description.slice(0, 30)), flag.name).toBe(1)
    }
    const command = await run(["bots", "get", "--help"])
    for (const flag of Global.flags) {
      // Named in one pointer, never described again.
      expect(command.stdout).not.toContain(flag.description.slice(0, 30))
      expect(occurrences(flat(command.stdout), `--${flag.name}`), flag.name).toBeLessThanOrEqual(2)
    }
    expect(flat(command.stdout)).toContain("--completions and --wizard: see community-api --help.")
  })

  it("lines are wrapped to 80 columns in a pipe and to the terminal's width on a terminal", async () => {
    for (const args of [["--help"], ["call", "--help"], ["bots", "get", "--help"], ["vars", "create", "--help"]]) {
      const piped = lines((await run(args)).stdout)
      expect(Math.max(...piped.map((line) => line.length)), args.join(" ")).toBeLessThanOrEqual(80)
      const wide = lines((await run(args, { terminal: { stdout: true, columns: 132 } })).stdout)
      expect(Math.max(...wide.map((line) => line.length)), args.join(" ")).toBeLessThanOrEqual(132)
      expect(Math.max(...wide.map((line) => line.length)), args.join(" ")).toBeGreaterThan(80)
      expect(wide.length).toBeLessThan(piped.length)
      const narrow = lines((await run(args, { terminal: { stdout: true, columns: 60 } })).stdout)
      expect(Math.max(...narrow.map((line) => line.length)), args.join(" ")).toBeLessThanOrEqual(60)
    }
  })

  it("E17 call --help lists the operations called by path, with their assumed parameters", async () => {
    const text = flat((await run(["call", "--help"])).stdout)
    for (const op of Operations.undocumented) expect(text).toContain(op.path)
    expect(text).toContain("Assumed parameters: group_id, channel and name")
    expect(text).toContain("key=value sends text, key:=json sends a JSON value")
  })

  it("C1 serve --help names the sandbox's flags and takes --log-level", async () => {
    const help = await run(["serve", "--help"])
    expect(help.code).toBe(ExitCode.kinds.success.code)
    expect(flat(help.stdout)).toContain("community-api serve [sandbox flags] [--log-level LEVEL]")
    expect(flat(help.stdout)).toContain("--port N")
  })
})
