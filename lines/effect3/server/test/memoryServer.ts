/**
 * The server on a port in a child process of its own, so that its memory can be measured apart from
 * the sockets of the test that drives it (`StalledBodies.test.ts`). Run with `--expose-gc`.
 *
 * It takes its `ServeOptions` as JSON in argv[2], sends `{ port }` over IPC once it listens, and
 * answers each `"measure"` message with its `process.memoryUsage()` after two full collections.
 */
import { HttpServer } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as ReferenceServer from "../src/ReferenceServer.js"

const options = JSON.parse(process.argv[2] ?? "{}") as ReferenceServer.ServeOptions
const collect = (globalThis as { gc?: () => void }).gc

process.on("message", (message) => {
  if (message !== "measure") return
  collect?.()
  collect?.()
  process.send?.({ memory: process.memoryUsage() })
})
// The test's end is this process's end.
process.on("disconnect", () => process.exit(0))

const program = Effect.gen(function*() {
  const server = yield* HttpServer.HttpServer
  if (server.address._tag === "TcpAddress") process.send?.({ port: server.address.port })
  return yield* Effect.never
}).pipe(Effect.provide(ReferenceServer.layerServe({ ...options, port: 0 })))

NodeRuntime.runMain(program)
