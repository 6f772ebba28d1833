/**
 * What the command line says and how long it waits when the host fails: each retry announced on a
 * terminal, the whole wait bounded by the command line's own budget, one closing line and exit 6.
 * The program runs in process on the test clock: the clock moves only when the program waits for it
 * (a retry's delay, an attempt's timeout), never with the time the machine takes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Duration, Effect, Fiber, Option, TestClock } from "effect"
import * as net from "node:net"
import { freePort } from "../../../scripts/redis.mjs"
import * as ExitCode from "../src/ExitCode.js"
import * as Session from "../src/Session.js"
import * as InProcess from "./support/InProcess.js"
import type * as Outcome from "./support/Outcome.js"

/** A turn of the event loop: the sockets' events come in. */
const turn = Effect.promise(() => new Promise<void>((resolve) => setImmediate(resolve)))

/**
 * Runs the program on the test clock to its end: whenever it waits for a time that comes sooner than
 * `horizon` from now, the clock is set to that time. A wait further off (an attempt's timeout while a
 * refusal is on its way from the socket) is left until the socket answers.
 */
const onTestClock = (args: ReadonlyArray<string>, options: Outcome.RunOptions, horizon = Duration.infinity) =>
  Effect.gen(function*() {
    const started = yield* TestClock.currentTimeMillis
    const running = yield* InProcess.start(args, options)
    while (Option.isNone(yield* Fiber.poll(running.fiber))) {
      yield* turn
      const now = yield* TestClock.currentTimeMillis
      const due = Chunk.toReadonlyArray(yield* TestClock.sleeps()).filter((at) => at < now + Duration.toMillis(horizon))
      if (due.length > 0) yield* TestClock.setTime(Math.min(...due))
    }
    const code = yield* Fiber.join(running.fiber)
    const waited = (yield* TestClock.currentTimeMillis) - started
    return { code, stdout: running.stdout(), stderr: running.stderr(), waited }
  })

/** A port nothing listens on: bound, then closed. */
const closedPort = Effect.promise(freePort)

/** A host that takes connections and never answers, for the tests of the enclosing scope. */
const silentHost = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ server: net.Server; sockets: Set<net.Socket> }>((resolve) => {
      const sockets = new Set<net.Socket>()
      const server = net.createServer((socket) => {
        sockets.add(socket)
        socket.on("close", () => sockets.delete(socket))
      })
      server.listen(0, "127.0.0.1", () => resolve({ server, sockets }))
    })
  ),
  ({ server, sockets }) =>
    Effect.promise(() =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
    )
).pipe(Effect.map(({ server }) => (server.address() as net.AddressInfo).port))

const envOf = (port: number) => ({
  COMMUNITY_API_BASE_URL: `http://127.0.0.1:${port}/external-api/v2`,
  COMMUNITY_API_TOKEN: "thp_cli_retry_test_token"
})

const announcement = /^community-api: users\/me failed with (\w+): .*; attempt (\d+) of (\d+) in (\d+\.\d) s$/

describe("retries", () => {
  it.effect("A6 on a terminal each retry is one line: what failed, attempt n of m, the wait; then one closing line", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const result = yield* onTestClock(
        ["users", "me"],
        { env: envOf(port), terminal: { stderr: true } },
        Session.budget.attemptTimeout
      )
      expect(result.code).toBe(ExitCode.kinds.transient.code)
      expect(result.stdout).toBe("")
      const lines = result.stderr.trimEnd().split("\n")
      const attempts = Session.budget.retries + 1
      expect(lines).toHaveLength(attempts)
      const announced = lines.slice(0, -1).map((line) => announcement.exec(line))
      expect(announced.every((match) => match !== null), lines.join("\n")).toBe(true)
      expect(announced.map((match) => [match![1], Number(match![2]), Number(match![3])])).toEqual(
        Array.from({ length: attempts - 1 }, (_, i) => ["TransportError", i + 2, attempts])
      )
      // The waits announced are the waits taken: the clock moved by their sum and no more.
      const announcedWait = announced.reduce((sum, match) => sum + Number(match![4]), 0)
      expect(Math.abs(result.waited / 1000 - announcedWait)).toBeLessThanOrEqual(0.05 * attempts)
      expect(lines.at(-1)).toMatch(/^community-api: users\/me failed with TransportError: /)
      expect(result.stderr).not.toContain("thp_cli_retry_test_token")
    }))

  it.effect("A6 --retries sets the attempts told, and without a terminal nothing is announced", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      const one = yield* onTestClock(
        ["users", "me", "--retries", "1"],
        { env: envOf(port), terminal: { stderr: true } },
        Session.budget.attemptTimeout
      )
      expect(one.stderr.trimEnd().split("\n").map((line) => announcement.exec(line)?.slice(2, 4))).toEqual([
        ["2", "2"],
        undefined
      ])
      const piped = yield* onTestClock(["users", "me"], { env: envOf(port) }, Session.budget.attemptTimeout)
      expect(piped.code).toBe(ExitCode.kinds.transient.code)
      // One line, naming the cause once: the code, the host and the port.
      expect(piped.stderr).toBe(
        `community-api: users/me failed with TransportError: connection refused by 127.0.0.1:${port} (ECONNREFUSED)\n`
      )
    }))

  it.effect("A6 a host that never answers: the command line gives up within its deadline, one line, exit 6", () =>
    Effect.gen(function*() {
      const port = yield* silentHost
      const result = yield* onTestClock(["users", "me"], { env: envOf(port) })
      expect(result.code).toBe(ExitCode.kinds.transient.code)
      expect(result.stderr.trimEnd().split("\n")).toEqual([expect.stringMatching(
        /^community-api: users\/me failed with TimeoutError: .*deadline of 30000 ms/
      )])
      expect(result.waited).toBe(Duration.toMillis(Session.budget.deadline))
      // On a terminal, the attempts that timed out were announced on the way.
      const watched = yield* onTestClock(["users", "me"], { env: envOf(port), terminal: { stderr: true } })
      const lines = watched.stderr.trimEnd().split("\n")
      expect(lines.length).toBeGreaterThan(1)
      expect(lines.slice(0, -1).every((line) => announcement.exec(line)?.[1] === "TimeoutError"), lines.join("\n"))
        .toBe(true)
      expect(watched.code).toBe(ExitCode.kinds.transient.code)
    }).pipe(Effect.scoped))
})
