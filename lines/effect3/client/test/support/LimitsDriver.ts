/**
 * What the scenarios of real processes of one user need of the Effect 3 line (`Line.limitsChild`):
 * its child program (`limitsChild.ts`, bundled by the harness, `tests/client-behaviour/src/Processes.ts`)
 * and its reference server on a free loopback port (`ReferenceServer.layerServe({ port: 0 })`).
 */
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { HttpServer } from "@effect/platform"
import { ManagedRuntime } from "effect"
import { fileURLToPath } from "node:url"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Processes from "../../../../../tests/client-behaviour/src/Processes.js"

export const limitsChild: Driver.LimitsChild = {
  program: async () => {
    const esbuild = await import("esbuild")
    return Processes.bundle(
      (options) => esbuild.build(options),
      fileURLToPath(new URL("./limitsChild.ts", import.meta.url))
    )
  },
  sandbox: async (onRequest) => {
    const runtime = ManagedRuntime.make(ReferenceServer.layerServe({
      port: 0,
      onRequest: (entry) => onRequest({ millis: entry.millis, path: entry.path, outcome: entry.outcome })
    }))
    const address = (await runtime.runPromise(HttpServer.HttpServer)).address
    if (address._tag !== "TcpAddress") throw new Error("the sandbox is not on TCP")
    return { baseUrl: `http://127.0.0.1:${address.port}/external-api/v2`, close: () => runtime.dispose() }
  }
}
