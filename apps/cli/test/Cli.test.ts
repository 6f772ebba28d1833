import { describe, expect, it } from "@effect/vitest"
import * as Cli from "../src/Cli.js"

describe("Cli", () => {
  it("E1 --log-level may follow a command's own options: it is moved before the subcommand", () => {
    const argv = ["node", "community-api"]
    expect(Cli.hoistLogLevel([...argv, "users", "me", "--json", "--log-level", "debug"])).toEqual(
      [...argv, "--log-level", "debug", "users", "me", "--json"]
    )
    expect(Cli.hoistLogLevel([...argv, "users", "me", "--log-level=all", "--json"])).toEqual(
      [...argv, "--log-level=all", "users", "me", "--json"]
    )
    expect(Cli.hoistLogLevel([...argv, "--log-level", "info", "users", "me"])).toEqual(
      [...argv, "--log-level", "info", "users", "me"]
    )
  })

  it("E17 nothing after -- is moved, and a trailing --log-level without a value is left to the parser", () => {
    const argv = ["node", "community-api"]
    expect(Cli.hoistLogLevel([...argv, "call", "lists/get", "--", "--log-level", "x"])).toEqual(
      [...argv, "call", "lists/get", "--", "--log-level", "x"]
    )
    expect(Cli.hoistLogLevel([...argv, "users", "me", "--log-level"])).toEqual(
      [...argv, "users", "me", "--log-level"]
    )
  })
})
