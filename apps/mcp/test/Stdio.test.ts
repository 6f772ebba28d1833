/**
 * The server as an assistant's client sees it: the official MCP SDK's client spawns the compiled
 * executable and speaks the protocol over its standard input and output. Once in embedded mode (no
 * configuration, the demo owner) and once against the sandbox on a port with an employee's token:
 * `initialize`, `tools/list` (one tool per documented operation plus `call` and `limits_get`, every input schema valid
 * JSON Schema), and `tools/call` on a read, a change, a creation, a bad input and an access error.
 */
import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { Ajv2020 } from "ajv/dist/2020.js"
import { sandboxOnPort } from "../../../lines/effect3/server/test/portSupport.js"
import * as Tools from "../src/Tools.js"
import * as Mcp from "./support/Mcp.js"

const { enableableBotId, mainBotCount, mainCommunity, otherCommunity, subscriberUid, tokens, variableId } = DemoFixture

/** Every answer a test saw, to look for tokens in. */
const seen: Array<string> = []

/** The result of a tool's answer: its structured content is `{result}`. */
const resultOf = <A>(result: Mcp.CallResult): A => (result.structuredContent as { readonly result: A }).result

const remember = (result: Mcp.CallResult) => {
  seen.push(JSON.stringify(result))
  return result
}

const listTools = async (client: ReturnType<ReturnType<typeof Mcp.serverFor>["client"]>) => {
  const { tools } = await client.listTools()
  seen.push(JSON.stringify(tools))
  return tools
}

/** The checks of `tools/list` both modes share. */
const expectTools = (tools: Awaited<ReturnType<typeof listTools>>) => {
  const names = tools.map((tool) => tool.name)
  expect(names).toEqual([...Operations.documented.map((op) => op.path.replace("/", "_")), "call", "limits_get"])
  expect(names).toHaveLength(Operations.documented.length + 2)
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  for (const tool of tools) {
    expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/)
    expect(ajv.validateSchema(tool.inputSchema), `${tool.name}: ${ajv.errorsText(ajv.errors)}`).toBe(true)
    expect(() => ajv.compile(tool.inputSchema)).not.toThrow()
  }
}

describe("embedded sandbox", () => {
  const server = Mcp.serverFor(() => ({}))

  it("initialize: the server names itself, and its instructions say the calls go to the embedded sandbox", () => {
    const client = server.client()
    expect(client.getServerVersion()?.name).toBe("community-api-mcp")
    expect(client.getServerCapabilities()?.tools).toBeDefined()
    expect(client.getInstructions()).toContain("embedded sandbox with demo data")
    expect(client.getInstructions()).toContain("COMMUNITY_API_BASE_URL")
    expect(server.stderr()).toContain("embedded sandbox")
  }, Mcp.timeout)

  it("tools/list: a tool per documented operation, call and limits_get, each input schema valid", async () => {
    const tools = await listTools(server.client())
    expectTools(tools)
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    expect(byName.get("bots_get")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true })
    expect(byName.get("bots_enable")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true
    })
    expect(byName.get("vars_create")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false
    })
    expect(byName.get("vars_create")?.description).toContain("creation limit")
    expect(byName.get("vars_create")?.inputSchema.required).toEqual(["group_id", "channel", "title", "name"])
    expect(byName.get("bots_get")?.inputSchema.properties).toHaveProperty("all")
  }, Mcp.timeout)

  it(
    "E2 C12 a read: groups_get gives a page with total; bots_get with all: true, paged on, gathers every bot",
    async () => {
      const groups = remember(await server.call("groups_get", { count: 1 }))
      expect(groups.isError).toBeFalsy()
      const page = resultOf<{ items: Array<unknown>; total: number; next_offset?: number }>(groups)
      expect(page.items).toHaveLength(1)
      expect(page.total).toBeGreaterThan(1)
      expect(page.next_offset).toBe(1)
      expect(Mcp.textOf(groups)).toBe(`groups/get: 1 of ${page.total} items from offset 0; more from offset 1.`)
      // An answer stops at the size budget whatever all says; next_offset goes on until every bot is given.
      const ids: Array<string> = []
      let offset: number | undefined = 0
      for (let answers = 0; offset !== undefined; answers++) {
        expect(answers, "paging on ends").toBeLessThan(mainBotCount)
        const bots = remember(await server.call("bots_get", { ...mainCommunity, all: true, offset }))
        const all = resultOf<{ items: Array<{ id: string }>; total: number; next_offset?: number }>(bots)
        expect(all.total).toBe(mainBotCount)
        ids.push(...all.items.map((bot) => bot.id))
        offset = all.next_offset
      }
      expect(ids).toHaveLength(mainBotCount)
      expect(new Set(ids).size).toBe(mainBotCount)
    },
    Mcp.timeout
  )

  it("E6 S1 a change: bots_enable turns a disabled bot on and gives it back", async () => {
    const result = remember(await server.call("bots_enable", { bot_id: enableableBotId }))
    expect(result.isError).toBeFalsy()
    expect(resultOf(result)).toMatchObject({ id: enableableBotId, active: 1 })
    expect(Mcp.textOf(result)).toContain(`bots/enable: done (id ${enableableBotId}`)
  }, Mcp.timeout)

  it("E11 E10 a creation: vars_create creates a variable that vars_list then lists", async () => {
    const created = remember(
      await server.call("vars_create", { ...mainCommunity, title: "Любимый десерт", name: "mcp_dessert" })
    )
    expect(created.isError).toBeFalsy()
    const variable = resultOf<{ id: string; name: string }>(created)
    expect(variable).toMatchObject({ name: "mcp_dessert", title: "Любимый десерт" })
    const listed = remember(await server.call("vars_list", { ...mainCommunity, all: true }))
    expect(resultOf<{ items: Array<{ id: string }> }>(listed).items.map((v) => v.id)).toContain(variable.id)
  }, Mcp.timeout)

  it("C10 a bad input: a malformed bot_id and an unknown parameter are a tool error naming both", async () => {
    const result = remember(await server.call("bots_enable", { bot_id: "xyz", botid: enableableBotId }))
    expect(result.isError).toBe(true)
    expect(Mcp.errorOf(result)).toMatchObject({ type: "InvalidInput", operation: "bots_enable" })
    const issues = Mcp.errorOf(result)?.issues as Array<{ parameter: string }>
    expect(issues.map((issue) => issue.parameter).sort()).toEqual(["bot_id", "botid"])
    expect(Mcp.textOf(result)).toMatch(/^bots_enable: invalid input, nothing was sent: .*bot_id: /)
  }, Mcp.timeout)

  it("X1 an access error: mailings_get of another account's community is error 8 with the server's text", async () => {
    const result = remember(await server.call("mailings_get", otherCommunity))
    expect(result.isError).toBe(true)
    const error = Mcp.errorOf(result)
    expect(error).toMatchObject({ type: "AccessDeniedError", code: 8, operation: "mailings/get" })
    expect(error?.text).toMatch(/[а-яА-Я]/)
    expect(error?.advice).toMatch(/^[A-Z].*\.$/)
    expect(Mcp.textOf(result)).toBe(
      `mailings/get failed with AccessDeniedError, error 8: ${String(error?.text)}. ${String(error?.advice)}`
    )
  }, Mcp.timeout)

  it("E17 call: lists/create by path creates a list; a documented path is refused, naming path", async () => {
    const created = remember(
      await server.call("call", {
        path: "lists/create",
        params: { ...mainCommunity, name: "Покупатели MCP" }
      })
    )
    expect(created.isError).toBeFalsy()
    expect(resultOf(created)).toMatchObject({ name: "Покупатели MCP" })
    const refused = remember(await server.call("call", { path: "bots/enable", params: { bot_id: enableableBotId } }))
    expect(refused.isError).toBe(true)
    expect(Mcp.errorOf(refused)?.issues).toEqual([
      { parameter: "path", message: "bots/enable is documented: use the tool bots_enable" }
    ])
    const description = (await listTools(server.client())).find((tool) => tool.name === Tools.callName)?.description
    expect(description).toContain("parameters are not documented")
  }, Mcp.timeout)

  it("A1 no answer and nothing on standard error holds the demo owner's token", () => {
    expect(seen.length).toBeGreaterThan(5)
    for (const text of [...seen, server.stderr()]) expect(text).not.toContain(tokens.owner)
  })
})

describe("sandbox on a port", () => {
  const sandbox = sandboxOnPort()
  const server = Mcp.serverFor(() => ({ COMMUNITY_API_BASE_URL: sandbox.baseUrl(), COMMUNITY_API_TOKEN: tokens.users }))
  const answers: Array<string> = []
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await server.call(name, args)
    answers.push(JSON.stringify(result))
    return result
  }

  it("initialize and tools/list: the instructions name the base URL; the same tools as embedded", async () => {
    expect(server.client().getInstructions()).toContain(`the API at ${sandbox.baseUrl()}`)
    expect(server.stderr()).not.toContain("embedded sandbox")
    expectTools(await listTools(server.client()))
  }, Mcp.timeout)

  it("E10 C12 a read: vars_list gives the community's variables with total", async () => {
    const result = await call("vars_list", mainCommunity)
    expect(result.isError).toBeFalsy()
    const page = resultOf<{ items: Array<{ id: string }>; total: number }>(result)
    expect(page.items.map((v) => v.id)).toContain(variableId)
    expect(page.total).toBe(page.items.length)
  }, Mcp.timeout)

  it(
    "E13 C5 a change: vars_clear erases a value and answers no data, after which vars_get reads it empty",
    async () => {
      const cleared = await call("vars_clear", { var_id: variableId, uid: subscriberUid })
      expect(cleared.isError).toBeFalsy()
      expect(cleared.structuredContent).toEqual({ result: null })
      expect(Mcp.textOf(cleared)).toBe("vars/clear: done; the API answers no data for this operation.")
      const read = await call("vars_get", { var_id: variableId, uid: subscriberUid })
      expect(resultOf(read)).toMatchObject({ value: "" })
    },
    Mcp.timeout
  )

  it("E11 a creation: vars_create creates a variable on the sandbox", async () => {
    const result = await call("vars_create", { ...mainCommunity, title: "Город", name: "mcp_city" })
    expect(result.isError).toBeFalsy()
    expect(resultOf(result)).toMatchObject({ name: "mcp_city" })
    const requests = JSON.stringify(await sandbox.recentRequests())
    expect(requests).toContain("vars/create")
  }, Mcp.timeout)

  it("E11 a bad input: a name with a forbidden character is a tool error naming name; nothing is sent", async () => {
    const before = (await sandbox.recentRequests()).length
    const result = await call("vars_create", { ...mainCommunity, title: "Город", name: "bad.name" })
    expect(result.isError).toBe(true)
    expect(Mcp.errorOf(result)?.issues).toEqual([{ parameter: "name", message: expect.any(String) }])
    expect(Mcp.textOf(result)).toContain("name: ")
    expect((await sandbox.recentRequests()).length).toBe(before)
  }, Mcp.timeout)

  it("A9 an access error: bots_get needs the mailer role, which the users employee lacks: error 8", async () => {
    const result = await call("bots_get", mainCommunity)
    expect(result.isError).toBe(true)
    expect(Mcp.errorOf(result)).toMatchObject({ type: "AccessDeniedError", code: 8, operation: "bots/get" })
    expect(Mcp.errorOf(result)?.text).toMatch(/[а-яА-Я]/)
  }, Mcp.timeout)

  it("A1 no answer and nothing on standard error holds the token", () => {
    expect(answers.length).toBeGreaterThan(4)
    for (const text of [...answers, server.stderr()]) expect(text).not.toContain(tokens.users)
  })
})
