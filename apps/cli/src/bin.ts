#!/usr/bin/env node
/**
 * The `community-api` executable.
 *
 * @since 0.1.0
 */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect, Exit } from "effect"
import * as Cli from "./Cli.js"

Cli.main(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    teardown: (exit) => {
      const code = Exit.isSuccess(exit) ? exit.value as number : 1
      process.exitCode = code
      // Done is done: what is still scheduled (the client's pacing holds a permit for a second after
      // its answer, idle keep-alive sockets) would keep the process alive for nothing. It ends once its
      // output is written.
      process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))
    }
  })
)
