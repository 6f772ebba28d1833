/**
 * `pnpm start`: the sandbox ({@link Sandbox.run}) until Ctrl-C. What stops it before it serves is
 * one line on standard error and exit 2 (a usage error) or 1 (a fixture, a port).
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import { Cause, Console, Effect, Exit, Option } from "effect"
import * as Sandbox from "./Sandbox.js"

const stoppedLine = () => Sandbox.stoppedLine(process.stdout.isTTY === true)

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
  Sandbox.run(process.argv.slice(2)).pipe(
    Effect.tapError((error) => Console.error(error.message)),
    Effect.onInterrupt(() => Console.log(stoppedLine()))
  ),
  {
    disableErrorReporting: true,
    // Stopped (or done with `--help`): 0. Not started: the code of what stopped it.
    teardown: (exit, onExit) =>
      onExit(
        Exit.isSuccess(exit) || Cause.isInterruptedOnly(exit.cause)
          ? 0
          : Option.match(Cause.failureOption(exit.cause), { onNone: () => 1, onSome: Sandbox.exitCode })
      )
  }
)
