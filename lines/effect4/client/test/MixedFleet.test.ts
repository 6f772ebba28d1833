/**
 * A mixed fleet of one user: processes on the Effect 3 line and on the Effect 4 line, each with its
 * limiters on one real `redis-server`, calling the sandbox on a loopback port (its bundled program, as `pnpm start` runs it). Their
 * requests together stay under the API's 30 a second, and their creations together under 20 a
 * minute, with no error 5 from the sandbox: both lines take the same permits and counts (the core's
 * scripts and keys, the same user key derived from the token). The processes are each line's child
 * program, started by the harness of the scenarios (`tests/client-behaviour/src/Processes.ts`).
 */
import * as DemoData from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RedisServer, startRedisServer } from "../../../../scripts/redis.mjs"
import * as Calendar from "../../../../tests/client-behaviour/src/Calendar.js"
import type { ChildProgram } from "../../../../tests/client-behaviour/src/Driver.js"
import * as Processes from "../../../../tests/client-behaviour/src/Processes.js"
import { bundle, limitsChild } from "./support/LimitsDriver.js"

/** One request as the sandbox logged it: when it arrived, its path and its outcome. */
interface Logged {
  readonly at: number
  readonly path: string
  readonly outcome: string
}

const sandboxBin = fileURLToPath(new URL("../../../effect3/server/build/community-api-sandbox.js", import.meta.url))

/** The sandbox's real binary on a free loopback port, with its request log read from its output. */
const sandbox = async () => {
  const child: ChildProcess = spawn(process.execPath, [sandboxBin, "--port", "0"], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  const log: Array<Logged> = []
  let buffer = ""
  const baseUrl = await new Promise<string>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the sandbox exited with ${code}`)))
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      buffer += chunk
      const lines = buffer.split("\n")
      buffer = lines.pop() ?? ""
      for (const line of lines) {
        const base = /Reference server of the community API: (\S+)/.exec(line)
        if (base !== null) resolve(base[1]!)
        // `2026-11-26T09:00:00.000Z /external-api/v2/users/me ok 3ms`: answered at, path, outcome, time taken.
        const entry = /^(\S+Z) (\S+) (\S+) (\d+)ms$/.exec(line)
        if (entry !== null) {
          log.push({ at: Date.parse(entry[1]!) - Number(entry[4]), path: entry[2]!, outcome: entry[3]! })
        }
      }
    })
  })
  return {
    baseUrl,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGINT")
      })
  }
}

/** The most requests of `log` that arrived within any window of `millis`. */
const busiestWindow = (log: ReadonlyArray<Logged>, millis: number): number => {
  const times = log.map((entry) => entry.at).sort((a, b) => a - b)
  let most = 0
  for (let start = 0, end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= millis) start++
    most = Math.max(most, end - start + 1)
  }
  return most
}

/** The Effect 3 line's child program: the same jobs and report as this line's. */
const effect3Child = fileURLToPath(new URL("../../../effect3/client/test/support/limitsChild.ts", import.meta.url))

let redis: RedisServer
let effect3: ChildProgram
let effect4: ChildProgram

beforeAll(async () => {
  ;[redis, effect3, effect4] = await Promise.all([startRedisServer(), bundle(effect3Child), limitsChild.program()])
}, 120_000)

afterAll(async () => {
  await Promise.all([redis?.stop(), effect3?.remove(), effect4?.remove()])
})

/** Starts one child of each line with `job`, waits until both are ready, and tells them to go. */
const startBoth = async (job: (line: 3 | 4) => Processes.Job, beforeGo = async () => {}) => {
  const children = [Processes.start(effect3, job(3)), Processes.start(effect4, job(4))]
  await Promise.all(children.map((child) => child.ready))
  await beforeGo()
  for (const child of children) child.go()
  return children
}

describe("a mixed fleet of the Effect 3 and the Effect 4 line on one Redis", () => {
  it(
    "L1 two processes, one of each line, 8 fibers each for 3 s: at most 30 requests a second together, no error 5",
    async () => {
      const server = await sandbox()
      try {
        const children = await startBoth(() => ({
          kind: "rate",
          baseUrl: server.baseUrl,
          token: DemoData.tokens.owner,
          redisUrl: redis.url,
          prefix: "mixed-rate:",
          fibers: 8,
          seconds: 3
        }))
        const reports = await Promise.all(children.map((child) => child.report))
        const calls = Processes.requestsOf(server.log, "users/me")
        // Three seconds of 30 a second, both processes asking all along: the limit was what held them.
        expect(calls.length).toBeGreaterThanOrEqual(2 * Limits.requestsPerWindow)
        expect(calls.filter((entry) => entry.outcome === "5")).toEqual([])
        expect(busiestWindow(calls, Limits.rateWindowMillis)).toBeLessThanOrEqual(Limits.requestsPerWindow)
        // Both lines were served, each a fair part of the limit.
        for (const report of reports) {
          expect(report.failures).toEqual({})
          expect(report.ok).toBeGreaterThan(15)
        }
      } finally {
        await server.close()
      }
    },
    120_000
  )

  it(
    "L2 L4 15 creations in each line's process, fail mode, in one calendar minute: 20 created together, 10 refused by the quota, no error 5",
    async () => {
      const outcome = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
        const server = await sandbox()
        try {
          const children = await startBoth((line) => ({
            kind: "create",
            baseUrl: server.baseUrl,
            token: DemoData.tokens.owner,
            redisUrl: redis.url,
            prefix: `mixed-create-${retry}:`,
            creations: 15,
            onCreationLimit: "fail",
            community: DemoData.mainCommunity,
            name: `mixed-${line}`
          }), begin)
          const reports = await Promise.all(children.map((child) => child.report))
          return { reports, log: [...server.log] }
        } finally {
          await server.close()
        }
      }, { room: 10_000 })
      const { log, reports } = outcome
      const created = Processes.requestsOf(log, "lists/create")
      expect(created.filter((entry) => entry.outcome === "5")).toEqual([])
      expect(created.filter((entry) => entry.outcome === "ok")).toHaveLength(Limits.creationsPerMinute)
      expect(Processes.total(reports, (report) => report.ok)).toBe(Limits.creationsPerMinute)
      expect(Processes.total(reports, (report) => report.failures["CreationQuotaExceeded"] ?? 0)).toBe(10)
    },
    300_000
  )
})
