/**
 * The global setup of the packages whose tests start their compiled executable (`build/`, made by
 * `scripts/bundle.mjs`): remakes it first when a file it was made from has changed, so that a test run
 * outside turbo (`npx vitest run` in the package) does not start an old build. Under `pnpm test`,
 * turbo's `bundle` task has already made it and this is a check of a few milliseconds.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

const script = fileURLToPath(new URL("scripts/bundle.mjs", import.meta.url))

/** Runs in the package's folder, where vitest runs. */
export default function setup(): void {
  execFileSync(process.execPath, [script, "--if-stale"], { stdio: "inherit" })
}
