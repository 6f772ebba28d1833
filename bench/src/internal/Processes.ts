/**
 * Servers run as their users run them, each in a process of its own on a free loopback port: the
 * compiled sandbox (`pnpm start`) and Stoplight Prism's mock server, installed on demand.
 */
import * as Fixture from "@community-api/server/Fixture"
import { Effect } from "effect"
import type { Scope } from "effect"
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "../../../scripts/redis.mjs"
import * as Child from "./Child.js"

/** The repository's root. */
export const root = fileURLToPath(new URL("../../../", import.meta.url))

/** The contract's OpenAPI document, as the repository ships it. */
export const openApiDocument = path.join(root, "lines/effect3/schema/openapi.json")

/**
 * The Prism release used: the last that runs on Node 20 (5.15 and later ask for Node 24). Not in the
 * workspace's lockfile (it brings some 180 packages that the tests never need): installed on demand
 * into `bench/.cache/prism`, which git ignores.
 */
export const prismVersion = "5.14.2"
const prismDir = path.join(root, "bench/.cache/prism")
const prismPackage = path.join(prismDir, "node_modules/@stoplight/prism-cli/package.json")

/** Waits until `url` answers a POST (any status), polling every 100 ms for at most `millis`. */
const answering = async (url: string, millis: number): Promise<void> => {
  const until = Date.now() + millis
  for (;;) {
    try {
      await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
      return
    } catch (error) {
      if (Date.now() > until) throw new Error(`${url} did not answer within ${millis} ms: ${String(error)}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

/** A server running in a child process. */
export interface Served {
  readonly origin: string
}

/** Runs `node args` (`{port}` in them replaced by a free port) until the scope closes; ready once `probe` answers. */
const serveProcess = (args: (port: number) => ReadonlyArray<string>, probe: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const port = await freePort()
      // Their request logs go nowhere, as they would to a terminal nobody reads (both log by default).
      const child = spawn(process.execPath, [...args(port)], { cwd: root, stdio: ["ignore", "ignore", "inherit"] })
      const origin = `http://127.0.0.1:${port}`
      await answering(`${origin}${probe}`, 60_000)
      return { child, origin }
    }),
    ({ child }) => Effect.sync(() => child.kill())
  ).pipe(Effect.map(({ origin }): Served => ({ origin })))

/** Installs the pinned Prism into the cache folder unless it is there already. */
export const installPrism: Effect.Effect<void> = Effect.sync(() => {
  const installed = fs.existsSync(prismPackage)
    ? (JSON.parse(fs.readFileSync(prismPackage, "utf8")) as { version?: string }).version
    : undefined
  if (installed === prismVersion) return
  fs.mkdirSync(prismDir, { recursive: true })
  execFileSync(
    "npm",
    [
      "install",
      "--prefix",
      prismDir,
      "--no-audit",
      "--no-fund",
      "--no-save",
      "--loglevel=error",
      `@stoplight/prism-cli@${prismVersion}`
    ],
    // Without the variables of the pnpm script that runs the benchmark, which npm would read as its own.
    { cwd: prismDir, stdio: "inherit", env: Child.userEnv() }
  )
})

/** Prism's mock server on the contract's OpenAPI document, with its default settings. */
export const prism: Effect.Effect<Served, never, Scope.Scope> = Effect.zipRight(
  installPrism,
  serveProcess(
    (port) => [
      path.join(prismDir, "node_modules/@stoplight/prism-cli/dist/index.js"),
      "mock",
      openApiDocument,
      "--port",
      String(port),
      "--host",
      "127.0.0.1"
    ],
    "/users/me"
  )
)

/**
 * The compiled sandbox (`node lines/effect3/server/build/community-api-sandbox.js`, what `pnpm start` runs,
 * remade first if a source changed) with `fixture` written to a file for its `--fixture` flag.
 */
export const sandbox = (fixture: Fixture.Fixture): Effect.Effect<Served, never, Scope.Scope> =>
  Effect.gen(function*() {
    yield* Effect.sync(() =>
      execFileSync(process.execPath, ["scripts/bundle.mjs", "--if-stale", "lines/effect3/server"], {
        cwd: root,
        stdio: "inherit"
      })
    )
    const file = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const file = path.join(os.tmpdir(), `bench-fixture-${process.pid}.json`)
        fs.writeFileSync(file, JSON.stringify(Fixture.encode(fixture)))
        return file
      }),
      (file) => Effect.sync(() => fs.rmSync(file, { force: true }))
    )
    return yield* serveProcess(
      (port) => [
        path.join(root, "lines/effect3/server/build/community-api-sandbox.js"),
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--fixture",
        file
      ],
      "/external-api/v2/users/me"
    )
  })
