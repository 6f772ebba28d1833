#!/usr/bin/env node
/**
 * The `community-api` executable.
 *
 * @since 0.1.0
 */
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as Cli from "./Cli.js"

Cli.main(process.argv).pipe(
  Effect.provide(NodeContext.layer),
  NodeRuntime.runMain({
    disableErrorReporting: true,
    teardown: (exit) => {
      // Ctrl-C and SIGTERM interrupt the program (`runMain`): 130, or 0 for the servers.
      const code = Cli.exitCode(process.argv, exit)
      process.exitCode = code
      // Done is done: what is still scheduled (the client's pacing holds a permit for a second after
      // its answer, idle keep-alive sockets) would keep the process alive for nothing. It ends once its
      // output is written.
      process.stdout.write("", () => process.stderr.write("", () => process.exit(code)))
    }
  })
)
