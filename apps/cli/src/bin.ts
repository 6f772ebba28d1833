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
    teardown: (exit, onExit) => {
      const code = Exit.isSuccess(exit) ? exit.value as number : 1
      process.exitCode = code
      onExit(code)
    }
  })
)
