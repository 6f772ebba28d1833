/**
 * What the compiled command loads: a command against a base URL must not pay for the reference
 * server, which only embedded mode and `serve` need (it is imported dynamically, and the bundle keeps
 * it in chunks of its own). Node's module hooks list every file the process loads; the bundle's own
 * record (`build/bundle.json`) says which source files each one holds.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as ExitCode from "../src/ExitCode.js"
import * as Sandbox from "./support/Sandbox.js"
import * as Spawn from "./support/Spawn.js"

const buildDir = fileURLToPath(new URL("../build/", import.meta.url))

/** The sources of the server package, as the bundle's record names them. */
const isServerSource = (file: string) => /(^|\/)lines\/effect3\/server\/src\//.test(file)

let scratch = ""

beforeAll(() => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "community-api-lazy-"))
  // A load hook (it runs in a thread of its own) that writes each URL loaded to the file named in the
  // environment, and the module that registers it before the program starts.
  fs.writeFileSync(
    path.join(scratch, "hooks.mjs"),
    "import { appendFileSync } from \"node:fs\"\n" +
      "export async function load(url, context, next) {\n" +
      "  appendFileSync(process.env.LAZY_TEST_LOG, url + \"\\n\")\n" +
      "  return next(url, context)\n" +
      "}\n"
  )
  fs.writeFileSync(
    path.join(scratch, "register.mjs"),
    `import { register } from "node:module"\nregister(${
      JSON.stringify(pathToFileURL(path.join(scratch, "hooks.mjs")).href)
    })\n`
  )
})

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

/** Runs the command and gives the source files of every bundle file it loaded. */
const sourcesLoaded = async (args: ReadonlyArray<string>, env: Record<string, string>) => {
  const log = path.join(scratch, `loaded-${Math.random().toString(36).slice(2)}.txt`)
  const result = await Spawn.run(args, {
    env: { ...env, LAZY_TEST_LOG: log, NODE_OPTIONS: `--import=${path.join(scratch, "register.mjs")}` }
  })
  expect(result.code).toBe(ExitCode.kinds.success.code)
  const record = JSON.parse(fs.readFileSync(path.join(buildDir, "bundle.json"), "utf8")) as {
    readonly outputs: Record<string, ReadonlyArray<string>>
  }
  const loaded = fs.readFileSync(log, "utf8").split("\n")
    .filter((url) => url.startsWith("file:"))
    .map((url) => path.relative(buildDir, fileURLToPath(url)))
    .filter((file) => !file.startsWith(".."))
  expect(loaded).toContain("community-api.js")
  return loaded.flatMap((file) => record.outputs[file] ?? [])
}

describe("lazy loading", () => {
  const sandbox = Sandbox.sandboxOnPort()

  it("users me against a port loads no source of @community-api/server; embedded mode does", async () => {
    const remote = await sourcesLoaded(["users", "me", "--json"], sandbox.env(DemoFixture.tokens.owner))
    expect(remote.some((file) => file.includes("lines/effect3/client/src/"))).toBe(true)
    expect(remote.filter(isServerSource)).toEqual([])
    const embedded = await sourcesLoaded(["users", "me", "--json"], {})
    expect(embedded.filter(isServerSource)).not.toEqual([])
  }, Spawn.timeout)
})
