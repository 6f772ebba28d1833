import { describe, expect, it } from "vitest"
import * as Options from "../src/Options.js"

describe("the server's words", () => {
  it("no word: standard input and output, every tool, the default budget", () => {
    expect(Options.parse([])).toEqual(Options.defaults)
  })

  it("--http with its port and host; the filters and the budget", () => {
    expect(
      Options.parse([
        "--http",
        "--port",
        "0",
        "--host",
        "0.0.0.0",
        "--read-only",
        "--toolsets",
        "bots, vars",
        "--tools=users_me",
        "--compact",
        "--budget",
        "5000"
      ])
    ).toEqual({
      transport: { _tag: "Http", port: 0, host: "0.0.0.0" },
      surface: { readOnly: true, toolsets: ["bots", "vars"], tools: ["users_me"], compact: true },
      budget: 5000
    })
    expect(Options.parse(["--http"]).transport).toEqual({ _tag: "Http", port: 8765, host: "127.0.0.1" })
  })

  it("refuses an unknown flag, a word, a wrong number, --port without --http and a secret, in one line", () => {
    for (
      const words of [
        ["--frobnicate"],
        ["stdio"],
        ["--http", "--port", "http"],
        ["--http", "--port", "70000"],
        ["--port", "9000"],
        ["--budget", "10"],
        ["--http", "--secret", "s3cret-value"]
      ]
    ) {
      let error: unknown
      try {
        Options.parse(words)
      } catch (caught) {
        error = caught
      }
      expect(error, words.join(" ")).toBeInstanceOf(Options.UsageError)
      expect((error as Error).message).not.toContain("\n")
      expect((error as Error).message).not.toContain("s3cret-value")
    }
  })
})
