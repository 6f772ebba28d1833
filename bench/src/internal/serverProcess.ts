/**
 * The child process of `ReferenceChild.spawn`: builds the generated fixture, serves the reference
 * server on a loopback port, and answers the parent's commands (reset, faults, start and stop recording).
 */
import * as Faults from "@community-api/server/Faults"
import { Effect, Schema } from "effect"
import * as BenchFixture from "./BenchFixture.js"
import type { Command, Message } from "./ReferenceChild.js"
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
        // The parent's settings are plain JSON (it may run another Effect line): decoded here.
        ? Effect.as(Effect.flatMap(Schema.decodeUnknown(Faults.FaultSettings)(message.faults), server.setFaults), [])
        : message.command === "start"
        ? Effect.as(server.startRecording, [])
        : server.stopRecording
      void Effect.runPromise(effect).then((entries) => send({ _tag: "done", id: message.id, entries }))
    })
    send({ _tag: "ready", origin: server.origin })
    return yield* Effect.never
  })))
})
