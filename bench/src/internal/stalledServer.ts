/**
 * The child process of B10: the sandbox on a loopback port (`ReferenceServer.layerServe` with the demo
 * data and the default timeouts; the connection cap given by the parent), measured from inside.
 * Started with `--expose-gc`, which changes nothing until `gc` is called: only a reading that asks
 * for it collects first.
 *
 * It sends `{ _tag: "ready", port }` once it listens, and answers each command by its `id`: a
 * reading of `process.memoryUsage()` (after two full collections when `collect` is set), or a heap
 * snapshot written to `file` (for a diagnostic run).
 */
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as v8 from "node:v8"

/** A command of the parent. */
export type Command =
  | { readonly id: number; readonly command: "measure"; readonly collect: boolean }
  | { readonly id: number; readonly command: "snapshot"; readonly file: string }

/** The child's messages. */
export type Message =
  | { readonly _tag: "ready"; readonly port: number }
  | { readonly _tag: "memory"; readonly id: number; readonly memory: NodeJS.MemoryUsage }
  | { readonly _tag: "snapshot"; readonly id: number; readonly file: string }

const send = (message: Message) => process.send?.(message)
const collect = (globalThis as { gc?: () => void }).gc

process.on("message", (message: Command) => {
  if (message.command === "snapshot") {
    send({ _tag: "snapshot", id: message.id, file: v8.writeHeapSnapshot(message.file) })
  } else if (message.command === "measure") {
    if (message.collect) {
      collect?.()
      collect?.()
    }
    send({ _tag: "memory", id: message.id, memory: process.memoryUsage() })
  }
})
// The parent gone, nothing is left to serve.
process.on("disconnect", () => process.exit(0))

const options = JSON.parse(process.argv[2] ?? "{}") as ReferenceServer.ServeOptions

NodeRuntime.runMain(
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    if (server.address._tag === "TcpAddress") send({ _tag: "ready", port: server.address.port })
    return yield* Effect.never
  }).pipe(Effect.provide(ReferenceServer.layerServe({ ...options, port: 0 })))
)
