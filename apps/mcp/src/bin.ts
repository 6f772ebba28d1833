#!/usr/bin/env node
/**
 * The `community-api-mcp` executable: the MCP server over standard input and output.
 *
 * @since 0.1.0
 */
import { NodeRuntime, NodeSink, NodeStream } from "@effect/platform-node"
import { Exit } from "effect"
import * as Server from "./Server.js"

Server.run({ stdin: NodeStream.stdin, stdout: NodeSink.stdout }).pipe(
  NodeRuntime.runMain({
    disableErrorReporting: true,
    teardown: (exit) => {
      const code = Exit.isSuccess(exit) ? exit.value as number : 1
      process.exitCode = code
      // Standard input has ended: what is still scheduled (the client's pacing, idle keep-alive
      // sockets) would keep the process alive for nothing. It ends once its output is written.
      // Standard output may be ended already: the protocol ends it when standard input ends.
      const flush = (stream: NodeJS.WriteStream, then: () => void) =>
        stream.writableEnded || stream.destroyed ? then() : stream.write("", then)
      flush(process.stdout, () => flush(process.stderr, () => process.exit(code)))
    }
  })
)
