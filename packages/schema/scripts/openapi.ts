/**
 * Writes `openapi.json`, the OpenAPI 3.1 document built from the operation declarations.
 * Run with `pnpm --filter @community-api/schema openapi`; a test fails when the file is stale.
 */
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import * as OpenApi from "../src/OpenApi.js"

/** Where the document is written, and the text written there. */
export const target = fileURLToPath(new URL("../openapi.json", import.meta.url))

/** The file's text: the document as indented JSON with a final newline. */
export const render = (): string => `${JSON.stringify(OpenApi.make(), null, 2)}\n`

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(target, render())
  console.log(`wrote ${target}`)
}
