/**
 * `pnpm start`: the sandbox ({@link Sandbox.run}) until Ctrl-C.
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import * as Sandbox from "./Sandbox.js"

/** One line, on a terminal in place of the `^C` it echoed. */
const stoppedLine = () => `${process.stdout.isTTY ? "\r" : ""}Sandbox stopped.`

// Ctrl-C (SIGINT) or SIGTERM interrupts the sandbox (`runMain`): the port closes once the requests in
// flight are answered, one line says so and the process exits 0, so that `pnpm start` reports no
// failure. pnpm relays the Ctrl-C its process group already received: a second signal within a second
// is that one. A later one means "now": requests in flight are not waited for.
let firstSignal: number | undefined
const onSignal = () => {
  if (firstSignal === undefined) firstSignal = Date.now()
  else if (Date.now() - firstSignal > 1_000) {
    console.log(stoppedLine())
    process.exit(0)
  }
}
process.on("SIGINT", onSignal)
process.on("SIGTERM", onSignal)

NodeRuntime.runMain(
  Sandbox.run(process.argv.slice(2)).pipe(Effect.onInterrupt(() => Console.log(stoppedLine()))),
  { disableErrorReporting: true }
)
