/**
 * Usage errors as a user meets them, through the executable's program in process: one line on
 * standard error in the form of every other error (`community-api: …`), exit 2, nothing on standard
 * output, and nothing sent (no embedded sandbox is started).
 */
import { Operations } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as Global from "../src/Global.js"
import * as InProcess from "./support/InProcess.js"
import type * as Outcome from "./support/Outcome.js"

/** Runs the words and checks the common form: exit 2, one line, the prefix; gives that line. */
const refused = async (args: ReadonlyArray<string>, env?: Record<string, string>): Promise<string> => {
  const result: Outcome.Result = await InProcess.run(args, env === undefined ? {} : { env })
  expect(result.code, args.join(" ")).toBe(ExitCode.kinds.usage.code)
  expect(result.stdout, args.join(" ")).toBe("")
  const lines = result.stderr.trimEnd().split("\n")
  expect(lines, args.join(" ")).toHaveLength(1)
  expect(lines[0], args.join(" ")).toMatch(/^community-api: usage error: /)
  return lines[0]
}

describe("usage errors", () => {
  it("an unknown method lists the methods of its section, not the sections", async () => {
    const line = await refused(["bots", "frobnicate"])
    expect(line).toContain("bots has no method \"frobnicate\"")
    for (const op of Object.values(Operations.bots)) {
      expect(line).toContain(op.documented ? op.method : op.path)
    }
    expect(line).not.toContain("mailings")
    // The same before --help: the words name nothing to help with.
    expect(await refused(["bots", "frobnicate", "--help"])).toBe(line)
  })

  it("an unknown command lists the commands", async () => {
    const line = await refused(["bot", "get"])
    expect(line).toContain("there is no command \"bot\"")
    expect(line).toMatch(/users, groups, bots, .* call, serve or mcp/)
  })

  it("E17 an operation the spec only lists points to call", async () => {
    expect(await refused(["bots", "getSteps"])).toContain("community-api call bots/getSteps key=value")
    expect(await refused(["stats", "getMailingsStats"])).toContain("community-api call stats/getMailingsStats")
  })

  it("C7 a wrong channel names the flag and the allowed values once", async () => {
    const line = await refused(["bots", "get", "--channel", "XX"])
    expect(line).toBe(
      "community-api: usage error: bots get --channel: \"XX\" is not one of VK, TG, OK, MAX, CHAT or AVITO, any case"
    )
  })

  it("C8 a malformed integer is said in words, with no regular expression", async () => {
    const line = await refused(["bots", "get", "--group-id", "abc"])
    expect(line).toBe("community-api: usage error: bots get --group-id: \"abc\" is not an integer")
    expect(await refused(["users", "me", "--retries", "x"])).toContain("--retries: \"x\" is not an integer 0 or more")
  })

  it("C10 C13 a value the contract refuses in its own words keeps them", async () => {
    expect(await refused(["groups", "get", "--count", "0"])).toContain("--count: \"0\" is refused: count is at least 1")
    expect(await refused(["bots", "getById", "--bot-id", "xyz"])).toContain("24 characters of 0-9 and a-f")
    expect(await refused(["bots", "get", "--active", "2"])).toContain("--active: \"2\" is not 0 or 1")
  })

  it("A1 --token is refused: the token comes only from COMMUNITY_API_TOKEN or --token-stdin, and why", async () => {
    for (const args of [["users", "me", "--token", "thp_typed_on_the_line"], ["--token=thp_typed_on_the_line"]]) {
      const line = await refused(args)
      expect(line).toContain("--token is not accepted")
      expect(line).toContain("COMMUNITY_API_TOKEN")
      expect(line).toContain("--token-stdin")
      expect(line).toContain("process list")
      expect(line).toContain("history")
      expect(line).not.toContain("thp_typed_on_the_line")
    }
  })

  it("E3 a missing required flag, a flag with no value and an unknown flag name the flag", async () => {
    expect(await refused(["groups", "getEmployees", "--channel", "VK"])).toBe(
      "community-api: usage error: groups getEmployees needs --group-id (group_id: integer)"
    )
    expect(await refused(["bots", "get", "--channel"])).toContain(
      "bots get --channel needs a value: channel: VK, TG, OK, MAX, CHAT or AVITO, any case"
    )
    expect(await refused(["bots", "get", "--chanel", "vk"])).toContain(
      "bots get has no flag --chanel; did you mean --channel?"
    )
    expect(await refused(["bots", "get", "extra"])).toContain("bots get takes no word \"extra\"")
    expect(await refused(["call", "lists/get", "--jsn"])).toContain("call has no flag --jsn")
  })

  it("--log-level takes one of the levels, named once", async () => {
    const line = await refused(["users", "me", "--log-level", "loud"])
    expect(line).toContain(`--log-level: "loud" is not one of ${
      Global.levels.map(Global.levelName).join(", ")
        .replace(/, (\w+)$/, " or $1")
    }`)
  })

  it("a base URL that is no URL names its variable, before anything is sent", async () => {
    const line = await refused(["users", "me"], {
      COMMUNITY_API_BASE_URL: "not a url",
      COMMUNITY_API_TOKEN: "thp_demo_owner_4f9a1c2e8b7d3065"
    })
    expect(line).toContain("COMMUNITY_API_BASE_URL is refused")
    expect(line).not.toContain("internal error")
    expect(line).not.toContain("thp_demo_owner_4f9a1c2e8b7d3065")
  })

  it("a base URL with no path is refused with the same URL and the API's path, before anything is sent", async () => {
    const line = await refused(["users", "me"], {
      COMMUNITY_API_BASE_URL: "http://127.0.0.1:35323",
      COMMUNITY_API_TOKEN: "thp_demo_owner_4f9a1c2e8b7d3065"
    })
    expect(line).toBe(
      "community-api: usage error: COMMUNITY_API_BASE_URL is refused: it has no path: the API's base URL ends " +
        "with /external-api/v2 (http://127.0.0.1:35323/external-api/v2)"
    )
  })
})
