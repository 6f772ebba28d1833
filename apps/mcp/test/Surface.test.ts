/**
 * The tool surface, in process: `--read-only`, `--toolsets` and `--tools` each leave fewer tools and
 * compose, `call` is rebuilt over the operations they leave, a name that does not exist stops the
 * server with exit 2, and the compact tools find, describe and call only what the filters left (run
 * over the client and the reference server on the `TestClock`). Then the size of `tools/list` in
 * each mode, and the table of `docs/mcp.md` that reports it.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { readFileSync } from "node:fs"
import { PassThrough } from "node:stream"
import { fileURLToPath } from "node:url"
import * as Budget from "../src/Budget.js"
import * as Compact from "../src/Compact.js"
import * as Options from "../src/Options.js"
import * as Server from "../src/Server.js"
import * as Sizes from "../src/Sizes.js"
import * as Surface from "../src/Surface.js"
import * as Tools from "../src/Tools.js"
import * as InProcess from "./support/InProcess.js"

const { enableableBotId, mainCommunity } = DemoFixture

const TestLayer = InProcess.clientLayer()

const settings = { budget: Budget.defaultChars }

/** The tools offered with these words on the command line. */
const offered = (...words: ReadonlyArray<string>) => Surface.offered(Options.parse(words).surface)

const namesOf = (tools: ReadonlyArray<Surface.Offered>) => tools.map((tool) => tool.definition.name)

const toolOf = (tools: ReadonlyArray<Surface.Offered>, name: string) => {
  const tool = tools.find((candidate) => candidate.definition.name === name)
  if (tool === undefined) throw new Error(`no tool ${name} among ${namesOf(tools).join(", ")}`)
  return tool
}

/** The paths `call` reaches among `tools`. */
const callPaths = (tools: ReadonlyArray<Surface.Offered>) =>
  (toolOf(tools, Tools.callName).definition.inputSchema.properties as { path: { enum: Array<string> } }).path.enum

const operationTools = Tools.all.filter((tool): tool is Tools.OperationTool => tool._tag === "Operation")

const documentedNames = (keep: (tool: Tools.OperationTool) => boolean) =>
  operationTools.filter(keep).map((tool) => tool.definition.name)

const undocumentedPaths = (keep: (op: (typeof Operations.undocumented)[number]) => boolean) =>
  Operations.undocumented.filter(keep).map((op) => op.path)

const run = (tool: Surface.Offered, args: Record<string, unknown>) =>
  Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) => tool.run(client, args, settings))

interface Structured {
  readonly result?: any
  readonly error?: {
    readonly type: string
    readonly issues?: ReadonlyArray<{ readonly parameter: string; readonly allowed?: ReadonlyArray<unknown> }>
  }
}

const structured = (result: { readonly structuredContent?: unknown }) => result.structuredContent as Structured

/** The requests the reference server received whose text holds `path`. */
const requestsTo = (path: string) =>
  Effect.gen(function*() {
    const server = yield* ReferenceServer.ReferenceServer
    return (yield* server.recentRequests).filter((entry) => JSON.stringify(entry).includes(path))
  })

describe("filters", () => {
  it("no flag: every tool, call over every operation the API lists without documenting it", () => {
    const tools = offered()
    expect(namesOf(tools)).toEqual(Tools.all.map((tool) => tool.definition.name))
    expect(callPaths(tools)).toEqual(Operations.undocumented.map((op) => op.path))
  })

  it("--read-only keeps the tools annotated read-only, and call over the operations that read", () => {
    const tools = offered("--read-only")
    expect(namesOf(tools)).toEqual([
      ...documentedNames((tool) => tool.definition.annotations?.readOnlyHint === true),
      Tools.callName,
      Tools.limitsTool.definition.name
    ])
    for (const tool of tools) expect(tool.definition.annotations?.readOnlyHint, tool.definition.name).toBe(true)
    expect(callPaths(tools)).toEqual(undocumentedPaths((op) => op.reads))
    // The operations that change data, even those safe to repeat, are out of call's reach.
    for (const path of ["lists/create", "lists/rename", "vars/set", "bots/removeUser"]) {
      expect(callPaths(tools)).not.toContain(path)
    }
  })

  it("--toolsets keeps the tools of the sections named, and limits_get; call reaches only their operations", () => {
    const tools = offered("--toolsets", "bots,vars")
    expect(namesOf(tools)).toEqual([
      ...documentedNames((tool) => tool.op.section === "bots" || tool.op.section === "vars"),
      Tools.callName,
      Tools.limitsTool.definition.name
    ])
    expect(namesOf(tools)).toContain("bots_enable")
    expect(namesOf(tools)).not.toContain("lists_addUser")
    expect(callPaths(tools)).toEqual(undocumentedPaths((op) => op.section === "bots" || op.section === "vars"))
    // A section with no documented operation leaves call alone, over that section's operations, and
    // the limits that every section's calls spend.
    const stats = offered("--toolsets", "stats")
    expect(namesOf(stats)).toEqual([Tools.callName, Tools.limitsTool.definition.name])
    expect(callPaths(stats)).toEqual(undocumentedPaths((op) => op.section === "stats"))
  })

  it("--tools keeps exactly the tools named, in the list's order; call and limits_get only when named", () => {
    expect(namesOf(offered("--tools", "vars_create,bots_get"))).toEqual(["bots_get", "vars_create"])
    expect(namesOf(offered("--tools", "limits_get,users_me"))).toEqual(["users_me", "limits_get"])
    const call = offered("--tools", "call")
    expect(namesOf(call)).toEqual([Tools.callName])
    expect(callPaths(call)).toEqual(Operations.undocumented.map((op) => op.path))
  })

  it("the filters compose: a tool is kept when every filter given keeps it", () => {
    const tools = offered("--read-only", "--toolsets", "bots,vars", "--tools", "bots_get,bots_enable,vars_list,call")
    expect(namesOf(tools)).toEqual(["bots_get", "vars_list", Tools.callName])
    expect(callPaths(tools)).toEqual(["bots/getSteps"])
    expect(toolOf(tools, Tools.callName).definition.annotations).toMatchObject({ readOnlyHint: true })
  })

  it("a toolset or a tool that does not exist is a usage error naming the ones that do, in one line", () => {
    const refusal = (...words: ReadonlyArray<string>) => {
      try {
        offered(...words)
      } catch (error) {
        expect(error).toBeInstanceOf(Options.UsageError)
        return (error as Error).message
      }
      throw new Error(`${words.join(" ")} was not refused`)
    }
    const toolsets = refusal("--toolsets", "bots,nope")
    expect(toolsets).toBe(`--toolsets: no toolset named "nope"; the toolsets are ${Operations.sectionNames.join(", ")}`)
    const tools = refusal("--tools", "bots_get,bots_gett")
    expect(tools).toContain(`--tools: no tool named "bots_gett"; the tools are users_me, groups_get,`)
    expect(tools).toContain(`, ${Tools.callName}`)
    for (const message of [toolsets, tools]) expect(message).not.toContain("\n")
    // Filters that leave nothing would be a server with no tool.
    expect(refusal("--read-only", "--tools", "vars_create")).toMatch(/^the tool filters leave no tool/)
  })

  it("the server with an unknown tool exits 2 before anything starts, with one line on standard error", async () => {
    const stderr: Array<string> = []
    const stdout = new PassThrough()
    let written = ""
    stdout.on("data", (chunk: Buffer) => (written += chunk.toString("utf8")))
    const code = await Server.run(
      { stdin: new PassThrough(), stdout, stderr: { write: (text: string) => stderr.push(text) } },
      Options.parse(["--toolsets", "nope"])
    )
    expect(code).toBe(2)
    expect(stderr).toHaveLength(1)
    expect(stderr[0]).toMatch(/^community-api-mcp: --toolsets: no toolset named "nope"; the toolsets are users, /)
    expect(stderr[0]!.endsWith("\n")).toBe(true)
    expect(written).toBe("")
  })

  it("a base URL with no path exits 2 before anything starts, naming the variable and the URL to give", async () => {
    const stderr: Array<string> = []
    const saved = { ...process.env }
    process.env.COMMUNITY_API_BASE_URL = "http://127.0.0.1:35323"
    process.env.COMMUNITY_API_TOKEN = "thp_demo_owner_4f9a1c2e8b7d3065"
    try {
      const code = await Server.run(
        { stdin: new PassThrough(), stdout: new PassThrough(), stderr: { write: (text: string) => stderr.push(text) } },
        Options.parse([])
      )
      expect(code).toBe(2)
    } finally {
      process.env = saved
    }
    expect(stderr).toEqual([
      "community-api-mcp: COMMUNITY_API_BASE_URL is refused: it has no path: the API's base URL ends with " +
      "/external-api/v2 (http://127.0.0.1:35323/external-api/v2)\n"
    ])
  })

  it.effect("E17 call rebuilt under --read-only refuses an operation it no longer reaches; nothing is sent", () =>
    Effect.gen(function*() {
      const call = toolOf(offered("--read-only"), Tools.callName)
      const result = yield* run(call, { path: "lists/create", params: { ...mainCommunity, name: "Только чтение" } })
      expect(result.isError).toBe(true)
      const error = structured(result).error!
      expect(error.type).toBe("InvalidInput")
      expect(error.issues).toHaveLength(1)
      expect(error.issues![0]).toMatchObject({
        parameter: "path",
        allowed: undocumentedPaths((op) => op.reads)
      })
      expect(yield* requestsTo("lists/create")).toHaveLength(0)
      const unknown = yield* run(call, { path: "nope/nope" })
      expect(structured(unknown).error!.issues).toEqual([
        expect.objectContaining({ parameter: "path", allowed: undocumentedPaths((op) => op.reads) })
      ])
      // A documented path is still told which tool to use.
      const documented = yield* run(call, { path: "bots/get", params: mainCommunity })
      expect(structured(documented).error!.issues).toEqual([
        expect.objectContaining({ parameter: "path", message: "bots/get is documented: use the tool bots_get" })
      ])
    }).pipe(Effect.provide(TestLayer)))
})

describe("compact", () => {
  it("docs/mcp.md writes each tool's input as its schema has it: names, types, which are optional", () => {
    const page = readFileSync(fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url)), "utf8")
    for (const tool of offered("--compact")) {
      const written = new RegExp(`\`${tool.definition.name} \\{([^}]*)\\}\``).exec(page)
      expect(written, tool.definition.name).not.toBeNull()
      const schema = tool.definition.inputSchema as {
        readonly properties: Record<string, { readonly type: string }>
        readonly required?: ReadonlyArray<string>
      }
      const expected = Object.entries(schema.properties).map(([key, property]) =>
        `${key}${schema.required?.includes(key) ? "" : "?"}: ${property.type}`
      )
      expect(written![1]!.split(", ")).toEqual(expected)
    }
  })

  it("three tools over what the filters leave, with honest hints", () => {
    const tools = offered("--compact")
    expect(namesOf(tools)).toEqual([Compact.findName, Compact.describeName, Compact.callName])
    for (const name of [Compact.findName, Compact.describeName]) {
      expect(toolOf(tools, name).definition.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false })
    }
    // Calling may do what the worst tool does: the full surface changes and removes data.
    expect(toolOf(tools, Compact.callName).definition.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true
    })
    expect(toolOf(offered("--compact", "--read-only"), Compact.callName).definition.annotations).toMatchObject({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true
    })
    for (const tool of tools) {
      expect(tool.definition.name).toMatch(Tools.namePattern)
      expect(tool.definition.outputSchema?.type).toBe("object")
      expect(tool.definition.description).not.toMatch(/\b[CRSEALVX][0-9]{1,2}\b/)
    }
  })

  /** The compact tools over `bots` and `vars`, read-only: bots_get, bots_getById, vars_list, vars_get, call, limits_get. */
  const words = ["--compact", "--read-only", "--toolsets", "bots,vars"] as const
  const left = namesOf(Surface.select(Options.parse(words).surface).map(Surface.offer))

  it("the tools left, as the compact tools see them", () => {
    expect(left).toEqual(["bots_get", "bots_getById", "vars_list", "vars_get", Tools.callName, "limits_get"])
  })

  it.effect("find_operations finds by words among the tools left only; empty words list them all", () =>
    Effect.gen(function*() {
      const find = toolOf(offered(...words), Compact.findName)
      const all = structured(yield* run(find, { words: "" })).result
      expect(all.total).toBe(left.length)
      expect(all.operations.map((found: { tool: string }) => found.tool)).toEqual(left)
      expect(all.operations[0]).toEqual({
        tool: "bots_get",
        summary: Operations.bots.get.summary,
        access: "the owner, admins and employees with the mailer role",
        hints: "read-only"
      })
      const variables = structured(yield* run(find, { words: "custom variable" })).result
      expect(variables.operations.map((found: { tool: string }) => found.tool)).toEqual(["vars_list", "vars_get"])
      // vars_create exists, but --read-only left it out.
      const create = yield* run(find, { words: "create" })
      expect(structured(create).result).toEqual({ operations: [], total: 0 })
      expect(JSON.stringify(create.content)).toContain(`no tool matches; the tools are ${left.join(", ")}`)
      const limited = structured(yield* run(find, { words: "", limit: 2 })).result
      expect(limited.operations).toHaveLength(2)
      expect(limited.total).toBe(left.length)
      const refused = yield* run(find, { words: 5, limit: 50, other: true })
      expect(refused.isError).toBe(true)
      expect(structured(refused).error!.issues!.map((issue) => issue.parameter).sort()).toEqual([
        "limit",
        "other",
        "words"
      ])
    }).pipe(Effect.provide(TestLayer)))

  it.effect("describe_operation gives a tool's schemas, access and limits; a tool left out is one issue", () =>
    Effect.gen(function*() {
      const describe = toolOf(offered(...words), Compact.describeName)
      const original = toolOf(Surface.offered(Options.parse(["--read-only"]).surface), "vars_get").definition
      const described = yield* run(describe, { tool: "vars_get" })
      expect(described.isError).toBeFalsy()
      expect(structured(described).result).toEqual({
        tool: "vars_get",
        description: original.description,
        access: "the owner, admins and employees with the users role",
        limits: Tools.describeLimits(Operations.vars.get),
        annotations: original.annotations,
        inputSchema: original.inputSchema,
        outputSchema: original.outputSchema
      })
      const refused = yield* run(describe, { tool: "vars_create" })
      expect(refused.isError).toBe(true)
      expect(structured(refused).error!.issues).toEqual([
        { parameter: "tool", message: expect.stringContaining("vars_create"), allowed: left }
      ])
    }).pipe(Effect.provide(TestLayer)))

  it.effect("call_operation answers what the tool answers, and refuses a tool left out before anything is sent", () =>
    Effect.gen(function*() {
      const tools = offered(...words)
      const call = toolOf(tools, Compact.callName)
      const bots = yield* run(call, { tool: "bots_get", arguments: { ...mainCommunity, count: 2 } })
      expect(bots.isError).toBeFalsy()
      expect(structured(bots).result.items).toHaveLength(2)
      expect(structured(bots).result.total).toBe(DemoFixture.mainBotCount)
      const direct = yield* run(toolOf(Surface.offered(Options.parse([]).surface), "bots_get"), {
        ...mainCommunity,
        count: 2
      })
      expect(bots).toEqual(direct)
      const refused = yield* run(call, { tool: "bots_enable", arguments: { bot_id: enableableBotId } })
      expect(refused.isError).toBe(true)
      expect(structured(refused).error!.issues).toHaveLength(1)
      expect(structured(refused).error!.issues![0]).toMatchObject({ parameter: "tool", allowed: left })
      expect(yield* requestsTo("bots/enable")).toHaveLength(0)
      // call itself is left, over bots/getSteps only: a creation through it is refused too.
      const create = yield* run(call, {
        tool: Tools.callName,
        arguments: { path: "lists/create", params: { ...mainCommunity, name: "Сжато" } }
      })
      expect(structured(create).error!.issues![0]).toMatchObject({ parameter: "path", allowed: ["bots/getSteps"] })
      expect(yield* requestsTo("lists/create")).toHaveLength(0)
      const notObject = yield* run(call, { tool: "bots_get", arguments: [1] })
      expect(structured(notObject).error!.issues!.map((issue) => issue.parameter)).toEqual(["arguments"])
    }).pipe(Effect.provide(TestLayer)))
})

describe("instructions", () => {
  const embedded = { _tag: "Embedded", token: Option.none() } as const
  const told = (...words: ReadonlyArray<string>) => {
    const surface = Options.parse(words).surface
    return Server.instructions(embedded, Surface.select(surface), surface.compact)
  }

  it("every tool: one per operation, call, the list tools, where to start", () => {
    const text = told()
    expect(text).toContain("One tool per documented operation")
    expect(text).toContain(Tools.callName)
    expect(text).toContain("Start with groups_get.")
    expect(text).toContain("bots_get")
    expect(text).not.toContain(Compact.findName)
  })

  it("compact: the three tools and how they reach the operations left, no tool it does not offer", () => {
    const text = told("--compact", "--toolsets", "vars")
    for (const name of [Compact.findName, Compact.describeName, Compact.callName]) expect(text).toContain(name)
    expect(text).not.toContain("One tool per documented operation")
    expect(text).not.toContain("groups_get")
    expect(text).toContain("vars_list")
  })

  it("read-only says so; a filter that leaves no list tool says nothing of paging", () => {
    expect(told("--read-only")).toContain("Only operations that read are offered here.")
    expect(told()).not.toContain("Only operations that read")
    const single = told("--tools", "users_me")
    expect(single).not.toContain("List tools")
    expect(single).not.toMatch(new RegExp(`\\b${Tools.callName}\\b`))
  })
})

describe("sizes", () => {
  const full = Sizes.toolsListSize(offered())
  const readOnly = Sizes.toolsListSize(offered("--read-only"))
  const compact = Sizes.toolsListSize(offered("--compact"))

  it("the size is tools/list's answer in characters, and a token per four characters rounded up", () => {
    const tools = offered()
    expect(full.chars).toBe(JSON.stringify({ tools: tools.map((tool) => tool.definition) }).length)
    expect(full.tokens).toBe(Math.ceil(full.chars / 4))
  })

  it("compact is at most 15% of full; read-only less than full", () => {
    expect(compact.chars).toBeLessThanOrEqual(0.15 * full.chars)
    expect(readOnly.chars).toBeLessThan(full.chars)
    expect(Sizes.measure().map((row) => row.chars).slice(0, 3)).toEqual([full.chars, readOnly.chars, compact.chars])
  })

  it("docs/mcp.md reports the sizes exactly as the code measures them", () => {
    const docs = readFileSync(fileURLToPath(new URL("../../../docs/mcp.md", import.meta.url)), "utf8")
    const table = /<!-- sizes:start[^>]*-->\n([\s\S]*?)\n<!-- sizes:end -->/.exec(docs)
    expect(table?.[1]).toBe(Sizes.markdown())
  })
})
