/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * Limits shared through Redis by real processes: every test starts Node processes of one user on the
 * Effect 4 line (`support/limitsChild.ts`, run on the current Node) that share one `redis-server`
 * (started on a free loopback port for this file, `scripts/redis.mjs`) and one sandbox on a loopback
 * port (this line's reference server, in this process, one per test, `support/RealPortServer.ts`).
 * The counts are the sandbox's own request log. Everything runs on the live clock, as processes must;
 * the tests run side by side, since the creation tests mostly wait for the next calendar minute, and
 * the rate test measures once the others' processes are past their start.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import { Clock, Duration, Effect, Exit, Fiber, Scope } from "effect"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, startRedisServer } from "../../../../scripts/redis.mjs"
import * as Calendar from "../../../effect3/client/test/support/Calendar.js"
import * as Processes from "../../../effect3/client/test/support/Processes.js"
import * as Pacing from "../src/Pacing.js"
import * as RealPortServer from "./support/RealPortServer.js"

/** One request as the sandbox logged it, stamped with when it arrived (epoch milliseconds). */
interface Logged {
  readonly at: number
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
}

/** A sandbox on a loopback port with its request log, for one test. */
const sandbox = async () => {
  const log: Array<Logged> = []
  const scope = Effect.runSync(Scope.make())
  const served = await Effect.runPromise(
    RealPortServer.serve({
      onRequest: (entry) => log.push({ at: Date.now() - entry.millis, path: entry.path, outcome: entry.outcome })
    }).pipe(Scope.provide(scope))
  )
  return { baseUrl: served.baseUrl, log, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/** The child program of this line, bundled once for the file. */
const child = fileURLToPath(new URL("./support/limitsChild.ts", import.meta.url))

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** Starts `count` processes with `job`, waits until every one is ready, and tells them all to go. */
const startTogether = async (count: number, job: (i: number) => Processes.Job, beforeGo = async () => {}) => {
  const children = Array.from({ length: count }, (_, i) => Processes.start(bundle, job(i)))
  await Promise.all(children.map((child) => child.ready))
  await beforeGo()
  const goAt = Date.now()
  for (const child of children) child.go()
  return { children, goAt }
}

/** Stops the processes of a try and its sandbox. */
const stop = async (children: ReadonlyArray<Processes.Child>, server: { readonly close: () => Promise<void> }) => {
  await Promise.all(children.map((child) => child.kill()))
  await server.close()
}

/** A promise and its resolver. */
const deferred = () => {
  let resolve = () => {}
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}

/**
 * When the other tests' processes are past their busy start (Node starting, the first creations):
 * the rate test measures after that, so that the processes of this file do not compete with it for
 * the two cores. Each resolves in any case once its test ends.
 */
const started = { wait: deferred(), fail: deferred(), lease: deferred() }

let redis: RedisServer
let bundle: Processes.Bundle

beforeAll(async () => {
  ;[redis, bundle] = await Promise.all([startRedisServer(), Processes.bundle(child)])
}, 120_000)

afterAll(async () => {
  await Promise.all([redis?.stop(), bundle?.remove()])
})

const main = Demo.mainCommunity

describe.concurrent("Limits shared by several processes through Redis", () => {
  it(
    "L2 L4 three processes making 15 creations each, started in one minute, wait mode: exactly 20 created in that minute, the rest in the next minutes, no error 5",
    async () => {
      let server: Awaited<ReturnType<typeof sandbox>> | undefined
      try {
        // The first minute's 20 come at once; the rest wait for the next minutes, idle. Those 20 must
        // all arrive in the minute the processes start in: a try that a minute boundary split is
        // stopped and tried again from the start of the new minute, on a sandbox and Redis counts of
        // its own. The next minutes are each filled from their start, with the whole minute ahead.
        const tried = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
          const own = await sandbox()
          const children: Array<Processes.Child> = []
          try {
            const started = await startTogether(3, (i) => ({
              kind: "create",
              baseUrl: own.baseUrl,
              token: Demo.tokens.owner,
              redisUrl: redis.url,
              prefix: `wait-test-${retry}:`,
              creations: 15,
              onCreationLimit: "wait",
              community: main,
              name: `wait-${i}`
            }), begin)
            children.push(...started.children)
            const createdCount = () =>
              own.log.filter((entry) => entry.path.endsWith("/lists/create") && entry.outcome === "ok").length
            for (let polls = 0; polls < 600 && createdCount() < 20; polls++) await sleep(100)
            return { ...started, server: own }
          } catch (error) {
            await stop(children, own)
            throw error
          }
        }, { room: 10_000, discard: (tried) => stop(tried.children, tried.server) })
        server = tried.server
        started.wait.resolve()
        const reports = await Promise.all(tried.children.map((child) => child.report))
        const creations = server.log.filter((entry) => entry.path.endsWith("/lists/create"))
        const created = creations.filter((entry) => entry.outcome === "ok")
        const first = Limits.minuteOf(tried.goAt)
        const inMinute = (minute: number) => created.filter((entry) => Limits.minuteOf(entry.at) === minute).length
        expect(creations.filter((entry) => entry.outcome === 5)).toEqual([])
        expect(reports.map((report) => report.failures)).toEqual([{}, {}, {}])
        expect(reports.reduce((sum, report) => sum + report.ok, 0)).toBe(45)
        expect([inMinute(first), inMinute(first + 1), inMinute(first + 2)]).toEqual([20, 20, 5])
      } finally {
        started.wait.resolve()
        await server?.close()
      }
    },
    360_000
  )

  it(
    "L2 L4 L5 three processes making 15 creations each, started in one minute, fail mode: exactly 20 created, the other 25 fail typed, no error 5",
    async () => {
      try {
        // All 45 must fall in the minute the processes start in (else the next minute takes more): a
        // try that a minute boundary split is judged by nothing and tried again from the start of the
        // new minute, on a sandbox and Redis counts of its own.
        await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
          const server = await sandbox()
          try {
            const { children, goAt } = await startTogether(3, (i) => ({
              kind: "create",
              baseUrl: server.baseUrl,
              token: Demo.tokens.owner,
              redisUrl: redis.url,
              prefix: `fail-test-${retry}:`,
              creations: 15,
              onCreationLimit: "fail",
              community: main,
              name: `fail-${i}`
            }), begin)
            const reports = await Promise.all(children.map((child) => child.report))
            const creations = server.log.filter((entry) => entry.path.endsWith("/lists/create"))
            expect(creations.filter((entry) => entry.outcome === 5)).toEqual([])
            expect(creations.filter((entry) => entry.outcome === "ok").map((entry) => Limits.minuteOf(entry.at)))
              .toEqual(Array.from({ length: 20 }, () => Limits.minuteOf(goAt)))
            expect(reports.reduce((sum, report) => sum + report.ok, 0)).toBe(20)
            expect(reports.reduce((sum, report) => sum + (report.failures.CreationQuotaExceeded ?? 0), 0)).toBe(25)
            expect(
              reports.flatMap((report) => Object.keys(report.failures)).filter((tag) => tag !== "CreationQuotaExceeded")
            )
              .toEqual([])
            expect(reports.find((report) => report.failures.CreationQuotaExceeded)?.messages.CreationQuotaExceeded)
              .toContain(
                "creation quota of the minute is used up"
              )
          } finally {
            await server.close()
          }
        }, { room: 10_000 })
      } finally {
        started.fail.resolve()
      }
    },
    300_000
  )

  it(
    "L1 a process killed while it holds every permit of the user delays the others by no more than the lease",
    async () => {
      const leaseMillis = 3_000
      const job: Processes.Job = {
        kind: "hold",
        baseUrl: "http://127.0.0.1:9/external-api/v2",
        token: "unused",
        redisUrl: redis.url,
        prefix: "lease-test:",
        leaseMillis,
        userKey: "lease-test-user"
      }
      const holder = Processes.start(bundle, job)
      await holder.ready.finally(started.lease.resolve)
      holder.go()
      await holder.holding
      const waited = await Effect.runPromise(
        Effect.scoped(Effect.gen(function*() {
          const pacing = yield* Pacing.makeRedis({
            url: redis.url,
            prefix: "lease-test:",
            lease: Duration.millis(leaseMillis)
          })
          const taking = yield* Effect.forkChild(pacing.withPermit("lease-test-user")(Clock.currentTimeMillis))
          // The holder lives past its lease first: renewing, it keeps its permits however long it holds them.
          yield* Effect.sleep(Duration.millis(leaseMillis + 500))
          const killedAt = yield* Effect.promise(() => {
            const killed = holder.kill()
            const at = Date.now()
            return killed.then(() => at)
          })
          return (yield* Fiber.join(taking)) - killedAt
        }))
      )
      console.log(`lease ${leaseMillis} ms: the next permit came ${waited} ms after the kill`)
      // Not before the kill (the live holder kept its permits past the lease). Renewed every third of
      // the lease, the permits lapse between two thirds of it and all of it after the kill; the rest is
      // the wake-up of the waiter.
      expect(waited).toBeGreaterThanOrEqual(leaseMillis * 2 / 3 - 100)
      expect(waited).toBeLessThanOrEqual(leaseMillis + 500)
    },
    120_000
  )
  it(
    "L1 three processes of one user for 20 s against the sandbox: zero error 5, and the shared store lets them near the limit together",
    async () => {
      // The bound below counts this wait too: a creation test tried again on a minute boundary can
      // delay it by a minute or more.
      await Promise.all([started.wait.promise, started.fail.promise, started.lease.promise])
      const server = await sandbox()
      try {
        const seconds = 20
        const { children } = await startTogether(3, () => ({
          kind: "rate",
          baseUrl: server.baseUrl,
          token: Demo.tokens.owner,
          redisUrl: redis.url,
          prefix: "rate-test:",
          fibers: 8,
          // A second more than is measured: the window starts at the first arrival, once they all run.
          seconds: seconds + 1
        }))
        const reports = await Promise.all(children.map((child) => child.report))
        const usersMe = server.log.filter((entry) => entry.path.endsWith("/users/me"))
        const from = Math.min(...usersMe.map((entry) => entry.at))
        const ok = usersMe.filter((entry) =>
          entry.outcome === "ok" && entry.at >= from && entry.at < from + seconds * 1000
        )
        const okPerSecond = ok.length / seconds
        console.log(
          `3 processes, Redis store: ${okPerSecond.toFixed(2)} ok/s over ${seconds} s, ${usersMe.length} requests`
        )
        expect(usersMe.filter((entry) => entry.outcome === 5)).toEqual([])
        expect(reports.map((report) => report.failures)).toEqual([{}, {}, {}])
        // The rate reached also depends on how much of the machine the three processes get: 30.00 ok/s
        // alone, 28.1 with the cores taken by other suites. How near the limit the store lets them come
        // is a speed goal, measured by benchmark B6 (at least 28.5 ok/s, side by side with limiters of
        // their own); here only a store that wastes permits falls below the floor: one that held each
        // permit a window more than the rule, or kept a lease after the answer, gives 15/s or less.
        expect(okPerSecond).toBeGreaterThanOrEqual(22)
      } finally {
        await server.close()
      }
    },
    300_000
  )
})
