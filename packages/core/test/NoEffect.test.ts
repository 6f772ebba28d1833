/**
 * The core is shared by both Effect lines, which do not interoperate at run time: nothing in it may
 * import Effect (or a package of ours, each of which is on one line), and its manifest names no Effect
 * package, so that installing it never brings a line with it.
 */
import { readdir, readFile } from "node:fs/promises"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

const sourceFiles = async (dir: string): Promise<Array<string>> => {
  const entries = await readdir(dir, { withFileTypes: true })
  const files = await Promise.all(entries.map((entry) => {
    const file = path.join(dir, entry.name)
    return entry.isDirectory() ? sourceFiles(file) : Promise.resolve(/\.[cm]?[jt]s$/.test(entry.name) ? [file] : [])
  }))
  return files.flat()
}

/** Every module a file names: static and dynamic imports, re-exports, `import type` included. */
const importsOf = (text: string): Array<string> =>
  ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName)

/** What the core may import: its own files and Node's built-in modules. */
const allowed = (specifier: string): boolean =>
  specifier.startsWith("./") || specifier.startsWith("../") || specifier.startsWith("node:")

describe("the core has no Effect in it", () => {
  it("no source file imports anything but its own files and Node's modules", async () => {
    const files = await sourceFiles(path.join(root, "src"))
    expect(files.length).toBeGreaterThan(0)
    const foreign: Array<string> = []
    for (const file of files) {
      for (const specifier of importsOf(await readFile(file, "utf8"))) {
        if (!allowed(specifier)) foreign.push(`${path.relative(root, file)}: ${specifier}`)
      }
    }
    expect(foreign).toEqual([])
  })

  it("the scan sees an import of Effect when there is one", () => {
    const specifiers = importsOf(
      `import { Schema } from "effect"\nexport type { X } from "@effect/platform"\nconst m = import("effect/Clock")`
    )
    expect(specifiers).toEqual(["effect", "@effect/platform", "effect/Clock"])
    expect(specifiers.filter(allowed)).toEqual([])
  })

  it("its manifest has no dependency of any kind on an Effect package or another package of ours", async () => {
    const manifest = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"))
    const names = ["dependencies", "peerDependencies", "optionalDependencies", "devDependencies"].flatMap(
      (field) => Object.keys(manifest[field] ?? {})
    )
    expect(
      names.filter((name) => name === "effect" || name.startsWith("@effect/") || name.startsWith("@community-api/"))
    ).toEqual([])
  })
})
