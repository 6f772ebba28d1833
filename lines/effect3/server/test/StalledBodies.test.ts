/**
 * Memory held by bodies that never finish, measured: the server runs in a child process of its own
 * (`memoryServer.ts`, with `--expose-gc`) and 1,000 sockets each send the headers of a 1 MB form body
 * and half a megabyte of it, then stall. The server's growth while they stall, and what is left once
 * the body timeout (the default, 30 s) has dropped them, are printed (docs/reliability.md keeps the figures) and bounded
 * loosely: the bounds are about memory, never about speed.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ChildProcess from "node:child_process"
import * as path from "node:path"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import type { Client } from "./portSupport.js"
import { allClosed, bounded, connect, okOf, send } from "./portSupport.js"

const packageDir = path.resolve(import.meta.dirname, "..")
const mebibyte = 1024 * 1024

const sockets = 1_000
const sentPerSocket = 512 * 1024
const announced = 1_000_000
/** The default: the test shows that memory is given back within it. */
const bodyTimeout = ReferenceServer.serveDefaults.bodyTimeout

/** The time bound of the test: the child process starts tsx, which takes seconds on a busy machine. */
const testTimeout = 180_000

type Memory = NodeJS.MemoryUsage

interface Server {
  readonly child: ChildProcess.ChildProcess
  readonly port: number
}

const start = (options: ReferenceServer.ServeOptions) =>
  Effect.acquireRelease(
    bounded(
      Effect.async<Server, Error>((resume) => {
        const child = ChildProcess.fork(path.join(packageDir, "test", "memoryServer.ts"), [JSON.stringify(options)], {
          cwd: packageDir,
          execArgv: ["--import", "tsx", "--expose-gc"],
          stdio: ["ignore", "inherit", "inherit", "ipc"]
        })
        child.once("message", (message: { port?: number }) => {
          if (message.port !== undefined) resume(Effect.succeed({ child, port: message.port }))
        })
        child.once("exit", (code) => resume(Effect.fail(new Error(`the server exited with ${code}`))))
      }),
      testTimeout / 2,
      "the server in a child process"
    ),
    ({ child }) => Effect.sync(() => child.kill("SIGKILL"))
  )

const measure = (server: Server) =>
  bounded(
    Effect.async<Memory>((resume) => {
      const listener = (message: { memory?: Memory }) => {
        if (message.memory === undefined) return
        server.child.off("message", listener)
        resume(Effect.succeed(message.memory))
      }
      server.child.on("message", listener)
      server.child.send("measure")
    }),
    30_000,
    "a measure of the server's memory"
  )

const mib = (bytes: number) => `${(bytes / mebibyte).toFixed(1)} MiB`
const describeMemory = (memory: Memory) =>
  `rss ${mib(memory.rss)}, heapUsed ${mib(memory.heapUsed)}, arrayBuffers ${mib(memory.arrayBuffers)}`

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/**
 * A socket that sends the headers of a form body of `announced` bytes without a token (so the server
 * must read the body to find `api_key`), then `sentPerSocket` bytes of it, then nothing. It writes only
 * as fast as the server takes (a pause longer than 300 ms is where it stalls), so the test's own memory
 * stays small whatever the server does.
 */
const stall = async (port: number): Promise<Client> => {
  const client = await connect(port)
  client.socket.write(
    `POST /external-api/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
      `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${announced}\r\n\r\npad=`
  )
  const chunk = "a".repeat(16 * 1024)
  for (let sent = 0; sent < sentPerSocket && !client.isClosed(); sent += chunk.length) {
    if (client.socket.write(chunk)) continue
    const drained = await Promise.race([
      new Promise<boolean>((resolve) => client.socket.once("drain", () => resolve(true))),
      sleep(300).then(() => false)
    ])
    if (!drained) break
  }
  return client
}

describe("on a port: memory held by stalled bodies", () => {
  it.live(
    "X1 1,000 bodies that stall halfway add at most 200 MB to the server, given back once the body timeout drops them",
    () =>
      Effect.gen(function*() {
        // Every default but the cap, which must let 1,000 sockets and a real request in.
        const server = yield* start({ maxConnections: sockets + 100 })
        const realRequest = Effect.map(
          send(server.port, {
            path: "/external-api/v2/users/me",
            headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
          }),
          okOf
        )
        // Warm up: the first requests allocate what every later one reuses.
        for (let i = 0; i < 20; i++) yield* realRequest
        const before = yield* measure(server)

        const clients: Array<Client> = []
        yield* Effect.addFinalizer(() => Effect.sync(() => clients.forEach((client) => client.socket.destroy())))
        for (let batch = 0; batch < sockets / 50; batch++) {
          clients.push(
            ...(yield* Effect.promise(() => Promise.all(Array.from({ length: 50 }, () => stall(server.port)))))
          )
        }
        // The peak while they stall: a few measures, the largest kept.
        let during = yield* measure(server)
        for (let i = 0; i < 3; i++) {
          yield* Effect.promise(() => sleep(500))
          const now = yield* measure(server)
          if (now.rss > during.rss) during = now
        }
        // The measure was taken while every body still stalled, and a real request is served meanwhile.
        expect(clients.filter((client) => client.isClosed())).toHaveLength(0)
        expect((yield* realRequest).user_id).toBe(DemoFixture.userIds.owner)

        yield* allClosed(clients, bodyTimeout + 60_000, "stalled bodies dropped after the body timeout")
        // The server learns of each close on its next turns: measured until the buffers are back, bounded.
        let after = yield* measure(server)
        for (let i = 0; i < 20 && after.arrayBuffers - before.arrayBuffers >= 16 * mebibyte; i++) {
          yield* Effect.promise(() => sleep(500))
          after = yield* measure(server)
        }
        console.log(
          [
            `stalled bodies: ${sockets} sockets, ${sentPerSocket / 1024} KiB sent of ${announced} announced each`,
            `  before:  ${describeMemory(before)}`,
            `  stalled: ${describeMemory(during)} (rss +${mib(during.rss - before.rss)})`,
            `  after the body timeout: ${describeMemory(after)} (rss +${mib(after.rss - before.rss)})`
          ].join("\n")
        )
        expect(during.rss - before.rss).toBeLessThan(200 * 1_000_000)
        // Given back: what the bodies held (buffers outside the heap, and the heap) is free again.
        expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * mebibyte)
        expect(after.heapUsed - before.heapUsed).toBeLessThan(32 * mebibyte)
        expect((yield* realRequest).user_id).toBe(DemoFixture.userIds.owner)
      }).pipe(Effect.scoped),
    testTimeout
  )
})
