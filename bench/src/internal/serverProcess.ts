/**
 * The child process of `Servers.spawnReference`: builds the generated fixture, serves the reference
 * server on a loopback port, and answers the parent's commands (reset, faults, start and stop recording).
 */
import { Effect } from "effect"
import * as BenchFixture from "./BenchFixture.js"
import type { Command, Message } from "./Servers.js"
import * as Servers from "./Servers.js"

const send = (message: Message) => process.send?.(message)

// The parent gone, nothing is left to serve.
process.on("disconnect", () => process.exit(0))

process.once("message", (options: BenchFixture.Options) => {
  const bench = BenchFixture.make(options)
  Effect.runFork(Effect.scoped(Effect.gen(function*() {
    const server = yield* Servers.reference(bench.fixture)
    process.on("message", (message: Command) => {
      const effect = message.command === "reset"
        ? Effect.as(server.reset, [])
        : message.command === "faults"
        ? Effect.as(server.setFaults(message.faults), [])
        : message.command === "start"
        ? Effect.as(server.startRecording, [])
        : server.stopRecording
      void Effect.runPromise(effect).then((entries) => send({ _tag: "done", id: message.id, entries }))
    })
    send({ _tag: "ready", origin: server.origin })
    return yield* Effect.never
  })))
})
