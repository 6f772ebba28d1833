/**
 * `pnpm start`: the sandbox ({@link Sandbox.run}) until Ctrl-C.
 *
 * @since 0.1.0
 */
import { NodeRuntime } from "@effect/platform-node"
import * as Sandbox from "./Sandbox.js"

NodeRuntime.runMain(Sandbox.run(process.argv.slice(2)), { disableErrorReporting: true })
