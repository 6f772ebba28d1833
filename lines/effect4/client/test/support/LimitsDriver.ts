/**
 * What the scenarios of real processes of one user need of the Effect 4 line (`Line.limitsChild`):
 * its child program (`limitsChild.ts`, bundled by the harness, `tests/client-behaviour/src/Processes.ts`)
 * and its reference server on a free loopback port (`RealPortServer.serve`).
 */
import { Effect, Exit, Scope } from "effect"
import { fileURLToPath } from "node:url"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Processes from "../../../../../tests/client-behaviour/src/Processes.js"
import * as RealPortServer from "./RealPortServer.js"

/** Bundles a child program of the same jobs and report (this line's, or the Effect 3 line's for a mixed fleet). */
export const bundle = async (entry: string) => {
  const esbuild = await import("esbuild")
  return Processes.bundle((options) => esbuild.build(options), entry)
}

export const limitsChild: Driver.LimitsChild = {
  program: () => bundle(fileURLToPath(new URL("./limitsChild.ts", import.meta.url))),
  sandbox: async (onRequest) => {
    const scope = Effect.runSync(Scope.make())
    const served = await Effect.runPromise(
      RealPortServer.serve({
        onRequest: (entry) => onRequest({ millis: entry.millis, path: entry.path, outcome: entry.outcome })
      }).pipe(Scope.provide(scope))
    )
    return { baseUrl: served.baseUrl, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
  }
}
