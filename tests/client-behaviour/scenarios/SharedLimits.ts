/**
 * Limits shared through Redis by real processes: every scenario starts Node processes of one user
 * (the line's child program, `test/support/limitsChild.ts`, through the harness `src/Processes.ts`)
 * that share one `redis-server` (started on a free loopback port for the scenario, `scripts/redis.mjs`)
 * and one sandbox on a loopback port (the line's reference server, in this process). The counts are
 * the sandbox's own request log. Everything runs on the live clock, as processes must; the scenarios
 * run one after the other, so the rate measured has the machine's cores to itself.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import * as Calendar from "../src/Calendar.js"
import * as Processes from "../src/Processes.js"
import { sleep, withRedis } from "../src/Redis.js"
import { assert, scenario, succeeded, suite } from "../src/Scenario.js"

const main = Demo.mainCommunity

export default suite("Limits shared by several processes through Redis", [
  scenario(
    "L2 L4 three processes making 15 creations each, started in one minute, wait mode: exactly 20 created in that minute, the rest in the next minutes, no error 5",
    withRedis((redis, line) =>
      Processes.withProgram(line, async (program) => {
        // The first minute's 20 come at once; the rest wait for the next minutes, idle. Those 20 must
        // all arrive in the minute the processes start in: a try that a minute boundary split is
        // stopped and tried again from the start of the new minute, on a sandbox and Redis counts of
        // its own. The next minutes are each filled from their start, with the whole minute ahead.
        const tried = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
          const own = await Processes.sandbox(line)
          try {
            const started = await Processes.startTogether(program, 3, (i) => ({
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
            const createdCount = () =>
              Processes.requestsOf(own.log, "lists/create").filter((entry) => entry.outcome === "ok").length
            for (let polls = 0; polls < 600 && createdCount() < 20; polls++) await sleep(100)
            return { ...started, server: own }
          } catch (error) {
            await own.close()
            throw error
          }
        }, { room: 10_000, discard: (tried) => Processes.stop(tried.children, tried.server) })
        try {
          const reports = await Promise.all(tried.children.map((child) => child.report))
          const creations = Processes.requestsOf(tried.server.log, "lists/create")
          const created = creations.filter((entry) => entry.outcome === "ok")
          const first = Limits.minuteOf(tried.goAt)
          const inMinute = (minute: number) => created.filter((entry) => Limits.minuteOf(entry.at) === minute).length
          assert.deepEqual(creations.filter((entry) => entry.outcome === 5), [])
          assert.deepEqual(reports.map((report) => report.failures), [{}, {}, {}])
          assert.equal(Processes.total(reports, (report) => report.ok), 45)
          assert.deepEqual([inMinute(first), inMinute(first + 1), inMinute(first + 2)], [20, 20, 5])
        } finally {
          await Processes.stop(tried.children, tried.server)
        }
      })
    ),
    360_000
  ),

  scenario(
    "L2 L4 L5 three processes making 15 creations each, started in one minute, fail mode: exactly 20 created, the other 25 fail typed, no error 5",
    withRedis((redis, line) =>
      Processes.withProgram(line, async (program) => {
        // All 45 must fall in the minute the processes start in (else the next minute takes more): a
        // try that a minute boundary split is judged by nothing and tried again from the start of the
        // new minute, on a sandbox and Redis counts of its own.
        await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
          const server = await Processes.sandbox(line)
          try {
            const { children, goAt } = await Processes.startTogether(program, 3, (i) => ({
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
            const creations = Processes.requestsOf(server.log, "lists/create")
            assert.deepEqual(creations.filter((entry) => entry.outcome === 5), [])
            assert.deepEqual(
              creations.filter((entry) => entry.outcome === "ok").map((entry) => Limits.minuteOf(entry.at)),
              Array.from({ length: 20 }, () => Limits.minuteOf(goAt))
            )
            assert.equal(Processes.total(reports, (report) => report.ok), 20)
            assert.equal(Processes.total(reports, (report) => report.failures["CreationQuotaExceeded"] ?? 0), 25)
            assert.deepEqual(
              reports.flatMap((report) => Object.keys(report.failures)).filter((tag) =>
                tag !== "CreationQuotaExceeded"
              ),
              []
            )
            const message = reports.find((report) => report.failures["CreationQuotaExceeded"])?.messages[
              "CreationQuotaExceeded"
            ]
            assert.ok(message?.includes("creation quota of the minute is used up"), message)
          } finally {
            await server.close()
          }
        }, { room: 10_000 })
      })
    ),
    300_000
  ),

  scenario(
    "L1 a process killed while it holds every permit of the user delays the others by no more than the lease",
    withRedis((redis, line) =>
      Processes.withProgram(line, async (program) => {
        const leaseMillis = 3_000
        const holder = Processes.start(program, {
          kind: "hold",
          baseUrl: "http://127.0.0.1:9/external-api/v2",
          token: "unused",
          redisUrl: redis.url,
          prefix: "lease-test:",
          leaseMillis,
          userKey: "lease-test-user"
        })
        try {
          await holder.ready
          holder.go()
          await holder.holding
          const pacing = await (await line.redis()).pacing({ url: redis.url, prefix: "lease-test:", leaseMillis })
          const taking = pacing.withPermit("lease-test-user")
          // The holder lives past its lease first: renewing, it keeps its permits however long it holds them.
          await sleep(leaseMillis + 500)
          const killed = holder.kill()
          const killedAt = Date.now()
          await killed
          const waited = (await succeeded(taking)).sentAt - killedAt
          console.log(`lease ${leaseMillis} ms: the next permit came ${waited} ms after the kill`)
          // Not before the kill (the live holder kept its permits past the lease). Renewed every third of
          // the lease, the permits lapse between two thirds of it and all of it after the kill; the rest is
          // the wake-up of the waiter.
          assert.ok(waited >= leaseMillis * 2 / 3 - 100, `waited ${waited} ms`)
          assert.ok(waited <= leaseMillis + 500, `waited ${waited} ms`)
        } finally {
          await holder.kill()
        }
      })
    ),
    120_000
  ),

  scenario(
    "L1 three processes of one user for 20 s against the sandbox: zero error 5, and the shared store lets them near the limit together",
    withRedis((redis, line) =>
      Processes.withProgram(line, async (program) => {
        const server = await Processes.sandbox(line)
        const children: Array<Processes.Child> = []
        try {
          const seconds = 20
          const started = await Processes.startTogether(program, 3, () => ({
            kind: "rate",
            baseUrl: server.baseUrl,
            token: Demo.tokens.owner,
            redisUrl: redis.url,
            prefix: "rate-test:",
            fibers: 8,
            // A second more than is measured: the window starts at the first arrival, once they all run.
            seconds: seconds + 1
          }))
          children.push(...started.children)
          const reports = await Promise.all(children.map((child) => child.report))
          const usersMe = Processes.requestsOf(server.log, "users/me")
          const from = Math.min(...usersMe.map((entry) => entry.at))
          const okPerSecond = Processes.okBetween(server.log, from, from + seconds * 1000) / seconds
          console.log(
            `3 processes, Redis store: ${okPerSecond.toFixed(2)} ok/s over ${seconds} s, ${usersMe.length} requests`
          )
          assert.deepEqual(usersMe.filter((entry) => entry.outcome === 5), [])
          assert.deepEqual(reports.map((report) => report.failures), [{}, {}, {}])
          // The rate reached also depends on how much of the machine the three processes get: 30.00 ok/s
          // alone, 28.1 with the cores taken by other suites. How near the limit the store lets them come
          // is a speed goal, measured by benchmark B6 (at least 28.5 ok/s, side by side with limiters of
          // their own); here only a store that wastes permits falls below the floor: one that held each
          // permit a window more than the rule, or kept a lease after the answer, gives 15/s or less.
          assert.ok(okPerSecond >= 22, `${okPerSecond} ok/s`)
        } finally {
          await Processes.stop(children, server)
        }
      })
    ),
    300_000
  )
])
