import { Operations } from "@community-api/schema"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Console, Effect, Option } from "effect"
import * as Run from "../src/Run.js"
import * as Session from "../src/Session.js"

/** Runs `effect` in embedded mode (no environment) and gives what it wrote to each stream. */
const capture = <E>(effect: Effect.Effect<void, E, never>) =>
  Effect.gen(function*() {
    const out: Array<string> = []
    const err: Array<string> = []
    const console = yield* Effect.console
    const recording: Console.Console = {
      ...console,
      log: (...args) => Effect.sync(() => void out.push(args.join(" "))),
      error: (...args) => Effect.sync(() => void err.push(args.join(" ")))
    }
    yield* effect.pipe(
      Effect.withConsole(recording),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map()))
    )
    return { stdout: out.join("\n"), stderr: err.join("\n") }
  })

const embedded = Session.provide({ tokenStdin: false, retries: Option.none() })
const main = DemoFixture.mainCommunity

describe("Run", () => {
  it.effect("C12 C13 --all --json starts at --offset and streams the rest as one JSON line per item", () =>
    Effect.gen(function*() {
      const { stderr, stdout } = yield* capture(
        Run.operation(Operations.bots.get, { ...main, offset: 600 }, { json: true, all: true }).pipe(embedded)
      )
      const lines = stdout.split("\n")
      expect(lines).toHaveLength(DemoFixture.mainBotCount - 600)
      const ids = lines.map((line) => (JSON.parse(line) as { id: string }).id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(stderr).toContain("embedded sandbox")
    }))

  it.effect("C12 --all with a small --count pages through every item into one table", () =>
    Effect.gen(function*() {
      const { stdout } = yield* capture(
        Run.operation(Operations.bots.get, { ...main, offset: 630, count: 4 }, { json: false, all: true }).pipe(
          embedded
        )
      )
      const [header, ...rows] = stdout.split("\n")
      expect(header.split(/ +/)).toEqual(Object.keys(Operations.bots.get.item.fields))
      expect(rows).toHaveLength(DemoFixture.mainBotCount - 630)
    }))

  it.effect("C5 an operation with no response field prints nothing", () =>
    Effect.gen(function*() {
      const { stdout } = yield* capture(
        Run.operation(
          Operations.lists.addUser,
          { list_id: DemoFixture.listId, uid: DemoFixture.subscriberUid },
          { json: true, all: false }
        ).pipe(embedded)
      )
      expect(stdout).toBe("")
    }))
})
