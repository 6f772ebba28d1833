/**
 * Writes `openapi.json`, the OpenAPI 3.1 document built from the operation declarations, with one
 * example per operation read from `scripts/examples.json`. Run with
 * `pnpm --filter @community-api/schema openapi`; a test fails when the file is stale.
 *
 * The examples come from the reference server: its demo data and its answers. This package cannot
 * import the server (the server depends on it, and turbo refuses a cycle), so the script first runs
 * `lines/effect3/server/scripts/openapiExamples.ts` in a child process, which prints them, and keeps them
 * in `examples.json`; the document is then built from the contract and that file alone, so the test
 * can rebuild it without the server. `--keep-examples` skips the capture (when only the contract's
 * wording changed, or the server does not run).
 */
import { execFileSync } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as OpenApi from "../src/OpenApi.js"

/** Where the document is written. */
export const target = fileURLToPath(new URL("../openapi.json", import.meta.url))

/** Where the examples captured from the reference server are kept. */
export const examplesFile = fileURLToPath(new URL("./examples.json", import.meta.url))

/** The server package, whose capture script prints the examples. */
const serverPackage = fileURLToPath(new URL("../../server/", import.meta.url))

/** The examples kept in {@link examplesFile}. */
export const examples = (): OpenApi.Examples => JSON.parse(readFileSync(examplesFile, "utf8")) as OpenApi.Examples

/** The document, with the kept examples. */
export const document = (): OpenApi.Document => OpenApi.make({ examples: examples() })

/** The file's text: the document as indented JSON with a final newline. */
export const render = (): string => `${JSON.stringify(document(), null, 2)}\n`

/** Runs the server's capture script (with the server's own `tsx`) and returns what it prints. */
const capture = (): string =>
  execFileSync(process.execPath, ["--import", "tsx", "scripts/openapiExamples.ts"], {
    cwd: serverPackage,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"]
  })

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!process.argv.includes("--keep-examples")) {
    writeFileSync(examplesFile, capture())
    console.log(`wrote ${examplesFile}`)
  }
  writeFileSync(target, render())
  console.log(`wrote ${target}`)
}
