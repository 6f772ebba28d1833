/**
 * The sandbox's control routes (`/_sandbox/faults`, `/_sandbox/reset`) on a real port: they take the
 * control token, never an API token, and answer 4 without it, doing nothing. The sandbox prints the
 * demo control token at start; one given by `--control-token` or the environment replaces it and is
 * not printed.
 */
import { describe, expect, it, vi } from "@effect/vitest"
import { Effect, Fiber, Redacted } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as Sandbox from "../src/Sandbox.js"
import { bounded, errorOf, okOf, port, send } from "./portSupport.js"

const missing = { code: 4, text: "Не передан токен управления песочницей" }
const wrong = { code: 4, text: "Неверный токен управления песочницей" }

const withToken = (token: string | undefined) => token === undefined ? {} : { authorization: `Bearer ${token}` }

const faultsBody = JSON.stringify({ latency: { fixed: 20_000 } })

describe("the control routes", () => {
  it.live("X1 without the control token, or with another token, the control routes answer 4 and do nothing", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const server = yield* ReferenceServer.ReferenceServer
      const refusals: Array<[string | undefined, { code: number; text: string }]> = [
        [undefined, missing],
        ["not-the-control-token", wrong],
        [DemoFixture.tokens.owner, wrong],
        [`${ReferenceServer.demoControlToken}x`, wrong]
      ]
      for (const [token, refusal] of refusals) {
        const headers = { ...withToken(token), "content-type": "application/json" }
        for (const path of ["/_sandbox/faults", "/_sandbox/%66aults"]) {
          expect(errorOf(yield* send(portNumber, { path, headers, body: faultsBody }))).toEqual(refusal)
        }
        expect(errorOf(yield* send(portNumber, { path: "/_sandbox/faults", method: "GET", headers }))).toEqual(refusal)
        expect(errorOf(yield* send(portNumber, { path: "/_sandbox/reset", headers }))).toEqual(refusal)
      }
      expect(yield* server.faults).toEqual({})

      const control = withToken(ReferenceServer.demoControlToken)
      const set = yield* send(portNumber, {
        path: "/_sandbox/faults",
        headers: { ...control, "content-type": "application/json" },
        body: JSON.stringify({ keyServiceUnavailable: { next: 1 } })
      })
      expect(okOf(set)).toEqual({ keyServiceUnavailable: { next: 1 } })
      expect(okOf(yield* send(portNumber, { path: "/_sandbox/faults", method: "GET", headers: control }))).toEqual({
        keyServiceUnavailable: { next: 1 }
      })
      expect((yield* send(portNumber, { path: "/_sandbox/reset", headers: control })).body).toEqual({ status: "ok" })
      expect(yield* server.faults).toEqual({})
    }).pipe(Effect.provide(ReferenceServer.layerServe({ port: 0 }))))

  it.live("X1 a control token given to the server replaces the demo one", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const reset = (token: string) => send(portNumber, { path: "/_sandbox/reset", headers: withToken(token) })
      expect(errorOf(yield* reset(ReferenceServer.demoControlToken))).toEqual(wrong)
      expect((yield* reset("my-own-control-token")).body).toEqual({ status: "ok" })
    }).pipe(
      Effect.provide(
        ReferenceServer.layerServe({ port: 0, controlToken: Redacted.make("my-own-control-token") })
      )
    ))
})

/** Runs the sandbox in this process with `argv` and `env` until its banner is printed; its output and base. */
const sandbox = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv) =>
  Effect.gen(function*() {
    const printed: Array<string> = []
    const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
      printed.push(args.map(String).join(" "))
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => spy.mockRestore()))
    const fiber = yield* Effect.forkScoped(Sandbox.run(["--port", "0", "--quiet", ...argv], env))
    yield* bounded(
      Effect.promise(async () => {
        while (!printed.join("\n").includes("Ctrl-C stops the server.")) {
          if (fiber.unsafePoll() !== null) return
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }),
      30_000,
      "the sandbox's banner"
    )
    const exit = fiber.unsafePoll()
    if (exit !== null) return yield* Effect.die(new Error(`the sandbox stopped: ${JSON.stringify(exit)}`))
    const banner = printed.join("\n")
    const portNumber = Number(/http:\/\/127\.0\.0\.1:(\d+)\/external-api\/v2/.exec(banner)?.[1])
    return { banner, portNumber, fiber }
  })

describe("the sandbox's control token", () => {
  it.live(
    "X1 the sandbox prints the demo control token; the flag or the variable replaces it, unprinted",
    () =>
      Effect.gen(function*() {
        const reset = (portNumber: number, token: string) =>
          send(portNumber, { path: "/_sandbox/reset", headers: withToken(token) })

        const demo = yield* sandbox([], {})
        // No --host: the loopback address only.
        expect(demo.banner).toContain(`http://127.0.0.1:${demo.portNumber}/external-api/v2`)
        expect(demo.banner).toContain(`Authorization: Bearer ${ReferenceServer.demoControlToken}`)
        expect((yield* reset(demo.portNumber, ReferenceServer.demoControlToken)).body).toEqual({ status: "ok" })
        yield* Fiber.interrupt(demo.fiber)

        const fromEnv = yield* sandbox([], { [Sandbox.controlTokenVariable]: "control-from-env-41" })
        expect(fromEnv.banner).not.toContain("control-from-env-41")
        expect(fromEnv.banner).not.toContain(ReferenceServer.demoControlToken)
        expect(fromEnv.banner).toContain(Sandbox.controlTokenVariable)
        expect(errorOf(yield* reset(fromEnv.portNumber, ReferenceServer.demoControlToken))).toEqual(wrong)
        expect((yield* reset(fromEnv.portNumber, "control-from-env-41")).body).toEqual({ status: "ok" })
        yield* Fiber.interrupt(fromEnv.fiber)

        // The flag wins over the variable.
        const fromFlag = yield* sandbox(["--control-token", "control-from-flag-42"], {
          [Sandbox.controlTokenVariable]: "control-from-env-41"
        })
        expect(fromFlag.banner).not.toContain("control-from-flag-42")
        expect(errorOf(yield* reset(fromFlag.portNumber, "control-from-env-41"))).toEqual(wrong)
        expect((yield* reset(fromFlag.portNumber, "control-from-flag-42")).body).toEqual({ status: "ok" })
        yield* Fiber.interrupt(fromFlag.fiber)
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "X1 the sandbox's timeouts and connection cap are flags; a wrong value, or a control token of several words, is a usage error",
    () =>
      Effect.gen(function*() {
        const limits = ["--headers-timeout", "700", "--body-timeout", "900", "--keep-alive-timeout", "3000"]
        const started = yield* sandbox([...limits, "--max-connections", "5"], {})
        const answer = yield* Effect.async<string>((resume) => {
          // The keep-alive timeout is announced in the answer's headers (in seconds).
          void fetch(`http://127.0.0.1:${started.portNumber}/external-api/v2/users/me`, {
            method: "POST",
            headers: withToken(DemoFixture.tokens.owner)
          }).then((response) => resume(Effect.succeed(response.headers.get("keep-alive") ?? "")))
        })
        expect(answer).toBe("timeout=3")
        yield* Fiber.interrupt(started.fiber)
        for (const wrongValue of ["0", "-1", "1.5", "soon"]) {
          const failed = yield* Effect.flip(Sandbox.run(["--port", "0", "--body-timeout", wrongValue], {}))
          expect(failed.message).toContain("--body-timeout needs a positive whole number")
        }
        for (const token of ["", "two words"]) {
          const failed = yield* Effect.flip(Sandbox.run(["--port", "0"], { [Sandbox.controlTokenVariable]: token }))
          expect(failed.message).toContain("the control token must be one word")
        }
      }).pipe(Effect.scoped),
    60_000
  )
})
