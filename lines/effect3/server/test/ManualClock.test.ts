/**
 * The sandbox's clock turned by hand (`--clock manual`, `POST /_sandbox/clock`) on a real port: the
 * creation minute and day, the token cache and the dates of created objects follow it; the per-second
 * rate and the latency keep the real time unless `--rate-clock manual`; the real-clock sandbox refuses
 * to turn; a body that does not decode moves nothing. No test waits for time to pass: the sandbox's time
 * moves only when a test moves it, and the sandbox's start is awaited on its banner, not by polling.
 */
import * as CoreClock from "@community-api/core/Clock"
import { describe, expect, it, vi } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import * as Sandbox from "../src/Sandbox.js"
import { bounded, errorOf, okOf, port, send } from "./portSupport.js"

const owner = DemoFixture.tokens.owner
const main = DemoFixture.mainCommunity
const control = { authorization: `Bearer ${ReferenceServer.demoControlToken}` }
const json = { "content-type": "application/json" }

/** 2026-01-01T00:00:00Z, 03:00 in Moscow: a creation day starts here. */
const newYear = Date.UTC(2026, 0, 1)
const minuteText = "Слишком много созданий: не более 20 в минуту"
const dayText = "Слишком много созданий: не более 200 в сутки"
const rateText = "Слишком много запросов: не более 30 в секунду"

/**
 * Runs the sandbox in this process with `argv` on a free port until the test's scope closes; its port
 * and banner. Its start is awaited on the banner's last line, caught as it is printed.
 */
const sandbox = (argv: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const printed: Array<string> = []
    const banner = yield* Deferred.make<string>()
    const spy = vi.spyOn(console, "log").mockImplementation((...args: Array<unknown>) => {
      printed.push(args.map(String).join(" "))
      const text = printed.join("\n")
      if (text.includes("Ctrl-C stops the server.")) Deferred.unsafeDone(banner, Exit.succeed(text))
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => spy.mockRestore()))
    const fiber = yield* Effect.forkScoped(Sandbox.run(["--port", "0", "--quiet", ...argv], {}))
    const text = yield* bounded(
      Effect.raceFirst(
        Deferred.await(banner),
        Effect.flatMap(Fiber.await(fiber), (exit) => Effect.die(new Error(`the sandbox stopped: ${String(exit)}`)))
      ),
      30_000,
      "the sandbox's banner"
    )
    const portNumber = Number(/http:\/\/127\.0\.0\.1:(\d+)\/external-api\/v2/.exec(text)?.[1])
    return { banner: text, portNumber }
  })

/** An operation of the API, its parameters as JSON, with the owner's token unless another is given. */
const call = (portNumber: number, operation: string, params: Record<string, unknown> = {}, token: string = owner) =>
  send(portNumber, {
    path: `/external-api/v2/${operation}`,
    headers: { authorization: `Bearer ${token}`, ...json },
    body: JSON.stringify(params)
  })

let names = 0
/** `lists/create` in the demo's main community, a new name each time. */
const createList = (portNumber: number) => call(portNumber, "lists/create", { ...main, name: `Список ${++names}` })

/** The code of an answer: `ok` or its error code. */
const codeOf = (answer: { readonly body: any }): number | "ok" =>
  answer.body.status === "ok" ? "ok" : answer.body.error_code

/** `POST /_sandbox/clock` with `body` as it is written (the control token unless other headers are given). */
const turn = (portNumber: number, body: string, headers: Record<string, string> = control) =>
  send(portNumber, { path: "/_sandbox/clock", headers: { ...headers, ...json }, body })

const advance = (portNumber: number, millis: number) => turn(portNumber, JSON.stringify({ advance: millis }))
const setTo = (portNumber: number, instant: string | number) => turn(portNumber, JSON.stringify({ set: instant }))

/** `GET /_sandbox/clock`: the time and how it runs. */
const clockOf = (portNumber: number) =>
  Effect.map(send(portNumber, { path: "/_sandbox/clock", method: "GET", headers: control }), okOf)

/** What the clock routes answer at `epochMillis`. */
const state = (epochMillis: number, manual: boolean, rateClock: "same" | "separate") => ({
  time: new Date(epochMillis).toISOString(),
  epochMillis,
  manual,
  rateClock
})

const served = (options: ReferenceServer.ServeOptions) =>
  Effect.provide(ReferenceServer.layerServe({ port: 0, ...options }))

describe("the sandbox's manual clock", () => {
  it.live(
    "L2 L5 --clock manual: twenty creations succeed, the 21st gets 5, an advance of 60000 ms lets the next through",
    () =>
      Effect.gen(function*() {
        const { banner, portNumber } = yield* sandbox(["--clock", "manual", "--clock-start", "2026-01-01T00:00:00Z"])
        expect(banner).toContain("Clock: manual, at 2026-01-01T00:00:00.000Z, the per-second rate on the real time")
        expect(yield* clockOf(portNumber)).toEqual(state(newYear, true, "separate"))
        for (let i = 0; i < 20; i++) {
          const created = okOf(yield* createList(portNumber))
          // The dates of created objects are the sandbox's time.
          expect(created.create_at).toBe(newYear / 1000)
        }
        expect(errorOf(yield* createList(portNumber))).toEqual({ code: 5, text: minuteText })
        expect(okOf(yield* advance(portNumber, 60_000))).toEqual(state(newYear + 60_000, true, "separate"))
        expect(okOf(yield* createList(portNumber)).create_at).toBe(newYear / 1000 + 60)
        expect(yield* clockOf(portNumber)).toEqual(state(newYear + 60_000, true, "separate"))
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "L2 the day's 200 creations; the day starts again at 03:00 Moscow time, reached by a set",
    () =>
      Effect.gen(function*() {
        // 23:00 in Moscow. The rate on the same clock: 200 creations come faster than 30 a real second.
        const start = Date.UTC(2026, 0, 1, 20)
        const { portNumber } = yield* sandbox([
          "--clock",
          "manual",
          "--clock-start",
          String(start),
          "--rate-clock",
          "manual"
        ])
        expect(yield* clockOf(portNumber)).toEqual(state(start, true, "same"))
        for (let minute = 0; minute < 10; minute++) {
          for (let i = 0; i < 20; i++) expect(codeOf(yield* createList(portNumber))).toBe("ok")
          okOf(yield* advance(portNumber, 60_000))
        }
        expect(errorOf(yield* createList(portNumber))).toEqual({ code: 5, text: dayText })
        // 02:59:59.999 in Moscow, given with Moscow's offset: still the same day.
        expect(okOf(yield* setTo(portNumber, "2026-01-02T02:59:59.999+03:00")).time).toBe("2026-01-01T23:59:59.999Z")
        expect(errorOf(yield* createList(portNumber))).toEqual({ code: 5, text: dayText })
        // 03:00 in Moscow, in unix milliseconds: a new day.
        expect(okOf(yield* setTo(portNumber, Date.UTC(2026, 0, 2)))).toEqual(state(Date.UTC(2026, 0, 2), true, "same"))
        expect(okOf(yield* createList(portNumber)).create_at).toBe(Date.UTC(2026, 0, 2) / 1000)
      }).pipe(Effect.scoped),
    120_000
  )

  it.live(
    "L1 --rate-clock manual: the 31st request in a second gets 5 until the clock moves 1000 ms",
    () =>
      Effect.gen(function*() {
        const { portNumber } = yield* sandbox(["--clock", "manual", "--rate-clock", "manual"])
        for (let i = 0; i < 30; i++) expect(codeOf(yield* call(portNumber, "users/me"))).toBe("ok")
        expect(errorOf(yield* call(portNumber, "users/me"))).toEqual({ code: 5, text: rateText })
        okOf(yield* advance(portNumber, 999))
        expect(codeOf(yield* call(portNumber, "users/me"))).toBe(5)
        okOf(yield* advance(portNumber, 1))
        expect(codeOf(yield* call(portNumber, "users/me"))).toBe("ok")
      }).pipe(Effect.scoped),
    60_000
  )

  it.live("L1 the rate's own clock: turning the server's clock does not open the rate window, turning the rate's does", () => {
    const clock = CoreClock.manual(newYear)
    const rateClock = CoreClock.manual(newYear)
    return Effect.gen(function*() {
      const portNumber = yield* port
      expect(yield* clockOf(portNumber)).toEqual(state(newYear, true, "separate"))
      for (let i = 0; i < 30; i++) expect(codeOf(yield* call(portNumber, "users/me"))).toBe("ok")
      expect(codeOf(yield* call(portNumber, "users/me"))).toBe(5)
      okOf(yield* advance(portNumber, 60_000))
      expect(clock.now()).toBe(newYear + 60_000)
      expect(codeOf(yield* call(portNumber, "users/me"))).toBe(5)
      rateClock.advance(1_000)
      expect(codeOf(yield* call(portNumber, "users/me"))).toBe("ok")
    }).pipe(served({ clock, rateClock }))
  })

  it.live(
    "a latency fault waits on the real time while the sandbox's clock stands still",
    () =>
      Effect.gen(function*() {
        const { portNumber } = yield* sandbox(["--clock", "manual", "--latency", "20"])
        // On the frozen clock this wait would never end; the answer comes, within the send's bound.
        expect(okOf(yield* call(portNumber, "users/me")).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped),
    60_000
  )

  it.live("A5 the token cache follows the clock: a revoked token works until 60 s pass on the sandbox's clock", () => {
    const clock = CoreClock.manual(newYear)
    const mailer = DemoFixture.tokens.mailer
    return Effect.gen(function*() {
      const portNumber = yield* port
      const server = yield* ReferenceServer.ReferenceServer
      expect(codeOf(yield* call(portNumber, "users/me", {}, mailer))).toBe("ok")
      yield* server.revokeToken(mailer)
      okOf(yield* advance(portNumber, 59_999))
      expect(codeOf(yield* call(portNumber, "users/me", {}, mailer))).toBe("ok")
      okOf(yield* advance(portNumber, 1))
      expect(codeOf(yield* call(portNumber, "users/me", {}, mailer))).toBe(4)
    }).pipe(served({ clock }))
  })
})

describe("turning the clock: refusals", () => {
  it.live(
    "X1 the real-clock sandbox refuses POST /_sandbox/clock with error 6; GET tells its time",
    () =>
      Effect.gen(function*() {
        const { banner, portNumber } = yield* sandbox([])
        expect(banner).not.toContain("Clock: manual")
        for (const body of [JSON.stringify({ advance: 60_000 }), JSON.stringify({ set: "2030-01-01T00:00:00Z" })]) {
          expect(errorOf(yield* turn(portNumber, body))).toEqual({
            code: 6,
            text:
              "clock: this sandbox runs on the real time, which nothing moves; start it with --clock manual to turn its clock"
          })
        }
        const told = yield* clockOf(portNumber)
        expect(told).toEqual(state(told.epochMillis, false, "same"))
      }).pipe(Effect.scoped),
    60_000
  )

  it.live("X1 a body that does not decode, a set backwards or no control token: one line, and the time does not move", () => {
    const clock = CoreClock.manual(newYear)
    return Effect.gen(function*() {
      const portNumber = yield* port
      const refusals: Array<[string, string]> = [
        [
          "{}",
          `clock: nothing asked; send {"advance": <milliseconds>} or {"set": "<ISO instant or unix milliseconds>"}`
        ],
        [
          JSON.stringify({ advance: -1 }),
          "clock: advance: expected a whole number of milliseconds, 0 or more, actual -1"
        ],
        [
          JSON.stringify({ advance: 1.5 }),
          "clock: advance: expected a whole number of milliseconds, 0 or more, actual 1.5"
        ],
        [
          JSON.stringify({ advance: "soon" }),
          `clock: advance: expected a whole number of milliseconds, 0 or more, actual "soon"`
        ],
        [
          JSON.stringify({ set: "tomorrow" }),
          `clock: set: expected an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, actual "tomorrow"`
        ],
        [
          // Without an offset the instant would depend on the machine's zone.
          JSON.stringify({ set: "2026-06-01T00:00:00" }),
          `clock: set: expected an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, actual "2026-06-01T00:00:00"`
        ],
        [
          JSON.stringify({ set: "2026-02-30T00:00:00Z" }),
          `clock: set: expected an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, actual "2026-02-30T00:00:00Z"`
        ],
        [
          JSON.stringify({ advance: 1, set: "2026-06-01T00:00:00Z" }),
          `clock: advance or set, not both; send {"advance": <milliseconds>} or {"set": "<ISO instant or unix milliseconds>"}`
        ],
        [
          JSON.stringify({ speed: 2 }),
          `clock: "speed" is unexpected; send {"advance": <milliseconds>} or {"set": "<ISO instant or unix milliseconds>"}`
        ],
        [
          JSON.stringify({ set: "2025-12-31T23:59:59.999Z" }),
          "clock: set: 2025-12-31T23:59:59.999Z is before the sandbox's time, 2026-01-01T00:00:00.000Z; the clock only moves forward"
        ],
        [
          JSON.stringify({ advance: 8_640_000_000_000_000 }),
          "clock: advance: the time would pass +275760-09-13T00:00:00.000Z"
        ]
      ]
      for (const [body, text] of refusals) {
        expect(errorOf(yield* turn(portNumber, body)), body).toEqual({ code: 7, text })
        expect(clock.now(), body).toBe(newYear)
      }
      for (const body of ["{\"advance\": ", "[60000]"]) {
        const refused = errorOf(yield* turn(portNumber, body))
        expect(refused.code, body).toBe(7)
        expect(refused.text, body).toMatch(/^clock: [^\n]+$/)
        expect(clock.now(), body).toBe(newYear)
      }
      // A token sent by mistake, as a form's name or as a value, is not quoted back.
      for (const body of [`${owner}=1`, `set=${owner}`]) {
        const refused = errorOf(
          yield* send(portNumber, {
            path: "/_sandbox/clock",
            headers: { ...control, "content-type": "application/x-www-form-urlencoded" },
            body
          })
        )
        expect(refused.code, body).toBe(7)
        expect(refused.text, body).not.toContain(owner)
        expect(clock.now(), body).toBe(newYear)
      }
      const missing = errorOf(yield* turn(portNumber, JSON.stringify({ advance: 60_000 }), {}))
      expect(missing).toEqual({ code: 4, text: "Не передан токен управления песочницей" })
      const apiToken = errorOf(
        yield* turn(portNumber, JSON.stringify({ advance: 60_000 }), { authorization: `Bearer ${owner}` })
      )
      expect(apiToken).toEqual({ code: 4, text: "Неверный токен управления песочницей" })
      expect(errorOf(yield* send(portNumber, { path: "/_sandbox/clock", method: "GET" })).code).toBe(4)
      expect(yield* clockOf(portNumber)).toEqual(state(newYear, true, "same"))
      // A set to the time it already shows is no move back; digits are unix milliseconds.
      expect(okOf(yield* setTo(portNumber, String(newYear)))).toEqual(state(newYear, true, "same"))
    }).pipe(served({ clock }))
  })

  it.effect("--clock, --clock-start and --rate-clock: a wrong value, or a manual setting without --clock manual, is a usage error", () =>
    Effect.gen(function*() {
      const usage = `usage: ${Sandbox.executable} [flags] (--help lists them)`
      const cases: Array<[ReadonlyArray<string>, string]> = [
        [["--clock", "fake"], "--clock needs real or manual, not fake"],
        [["--clock", "manual", "--rate-clock", "slow"], "--rate-clock needs real or manual, not slow"],
        [["--clock-start", "2026-01-01T00:00:00Z"], "--clock-start needs --clock manual"],
        [["--rate-clock", "manual"], "--rate-clock manual needs --clock manual"],
        [
          ["--clock", "manual", "--clock-start", "2026-01-01"],
          "--clock-start needs an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds, not 2026-01-01"
        ]
      ]
      for (const [argv, problem] of cases) {
        const failed = yield* Effect.flip(Sandbox.run(["--port", "0", ...argv], {}))
        expect(failed.message, argv.join(" ")).toBe(`${problem}\n${usage}`)
        expect(Sandbox.exitCode(failed)).toBe(2)
      }
      for (const label of ["--clock real|manual", "--clock-start INSTANT", "--rate-clock real|manual"]) {
        expect(Sandbox.help()).toContain(`  ${label} `)
      }
    }))
})
