#!/usr/bin/env node
/**
 * The `community-api-mcp` executable: the MCP server over standard input and output, or over
 * Streamable HTTP with `--http`.
 *
 * @since 0.1.0
 */
import * as Options from "./Options.js"
import * as Server from "./Server.js"

// Standard output carries the protocol alone: whatever a dependency prints goes to standard error.
console.log = console.error
console.info = console.error
console.debug = console.error

const main = async (): Promise<number> => {
  let options: Options.Options
  try {
    options = Options.parse(process.argv.slice(2))
  } catch (error) {
    if (!(error instanceof Options.UsageError)) throw error
    process.stderr.write(`${Server.prefix} ${error.message}\n`)
    return 2
  }
  return Server.run({ stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }, options)
}

const code = await main().catch((error: unknown) => {
  process.stderr.write(`${Server.prefix} stopped: ${error instanceof Error ? error.message : String(error)}\n`)
  return 1
})
process.exitCode = code
// What is still scheduled (idle keep-alive sockets, timers) would keep the process alive for nothing:
// it ends once its output is written.
const flush = (stream: NodeJS.WriteStream, then: () => void) =>
  stream.writableEnded || stream.destroyed ? then() : stream.write("", then)
flush(process.stdout, () => flush(process.stderr, () => process.exit(code)))
