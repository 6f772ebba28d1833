/**
 * A table of one page tells, on standard error, how many of how many rows it shows and that `--all`
 * streams every page; JSON says nothing there, since `total` is in it.
 */
import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import * as ExitCode from "../src/ExitCode.js"
import * as InProcess from "./support/InProcess.js"
import * as Sandbox from "./support/Sandbox.js"

const { community } = Sandbox
const { run } = InProcess

const embeddedNotice = /^community-api: no COMMUNITY_API_BASE_URL: /

/** Standard error without the embedded sandbox's notice. */
const said = (stderr: string) => stderr.trimEnd().split("\n").filter((line) => !embeddedNotice.test(line))

describe("a table of one page", () => {
  it("C12 C13 says how many of how many rows it shows and that --all streams every page", async () => {
    const result = await run(["bots", "get", ...community])
    expect(result.code).toBe(ExitCode.kinds.success.code)
    expect(result.stdout.trimEnd().split("\n")).toHaveLength(100 + 1)
    expect(said(result.stderr)).toEqual([
      `community-api: 100 of ${DemoFixture.mainBotCount} rows; --all streams every page`
    ])
  })

  it("C13 counts from --offset, and says nothing when the page holds every row", async () => {
    const from = DemoFixture.mainBotCount - 40
    const tail = await run(["bots", "get", ...community, "--offset", String(from)])
    expect(said(tail.stderr)).toEqual([
      `community-api: 40 of ${DemoFixture.mainBotCount} rows from offset ${from}; --all streams every page`
    ])
    const whole = await run(["groups", "get"])
    expect(whole.code).toBe(ExitCode.kinds.success.code)
    expect(said(whole.stderr)).toEqual([])
  })

  it("C12 not with --json, not with --all, not for call", async () => {
    for (
      const args of [
        ["bots", "get", ...community, "--json"],
        ["bots", "get", ...community, "--all", "--offset", "600"],
        ["call", Operations.bots.get.path, `group_id=${DemoFixture.mainCommunity.group_id}`, "channel=VK"]
      ]
    ) {
      const result = await run(args)
      expect(result.code, args.join(" ")).toBe(ExitCode.kinds.success.code)
      expect(said(result.stderr), args.join(" ")).toEqual([])
    }
  })
})
