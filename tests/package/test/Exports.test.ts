/**
 * What each package lets another import, read from the manifests and resolved by Node itself: the
 * applications export only what another package of the workspace imports (the command line imports
 * the MCP server; nothing imports the command line) and, published as bundles, nothing at all; and no
 * package lets its program (`bin`), which
 * runs when loaded, be imported, while its `sideEffects` names it, so that a bundler never drops or
 * hoists it as if it were inert.
 */
import { readFile } from "node:fs/promises"
import { createRequire } from "node:module"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..", "..")

interface Manifest {
  readonly name: string
  readonly bin?: Record<string, string>
  readonly exports?: Record<string, unknown>
  readonly publishConfig?: { readonly exports?: Record<string, unknown> }
  readonly sideEffects?: boolean | ReadonlyArray<string>
}

const manifest = async (dir: string): Promise<Manifest> =>
  JSON.parse(await readFile(path.join(root, dir, "package.json"), "utf8")) as Manifest

/** Node's resolution of `specifier` as the package in `dir` imports it (its own name included). */
const resolveFrom = (dir: string, specifier: string): string =>
  createRequire(path.join(root, dir, "package.json")).resolve(specifier)

/** The code of Node's error when `specifier` does not resolve from `dir`, or `undefined` when it does. */
const failureFrom = (dir: string, specifier: string): string | undefined => {
  try {
    resolveFrom(dir, specifier)
    return undefined
  } catch (error) {
    return (error as NodeJS.ErrnoException).code
  }
}

/** The packages with a program, where each keeps it. */
const programs = [
  { dir: "lines/effect3/server", name: "@community-api/server" },
  { dir: "apps/cli", name: "@community-api/cli" },
  { dir: "apps/mcp", name: "@community-api/mcp" }
] as const

describe("package exports", () => {
  it("the command line exports nothing: nothing imports it, it is run", async () => {
    const cli = await manifest("apps/cli")
    expect(cli.exports).toEqual({})
    expect(cli.publishConfig?.exports ?? {}).toEqual({})
    expect(failureFrom("apps/cli", "@community-api/cli")).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    expect(failureFrom("apps/cli", "@community-api/cli/Cli")).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
  })

  it("the MCP server exports only what the command line imports in the workspace, and nothing once published", async () => {
    const mcp = await manifest("apps/mcp")
    expect(Object.keys(mcp.exports ?? {})).toEqual(["./Server"])
    // The published command line carries the MCP server inside its bundle: nothing imports the package.
    expect(mcp.publishConfig?.exports).toEqual({})
    expect(resolveFrom("apps/cli", "@community-api/mcp/Server")).toBe(path.join(root, "apps/mcp/src/Server.ts"))
    // The environment's names and targets are the client's (`@community-api/client/Target`), not the MCP server's.
    const hiddenSpecifiers = [
      "@community-api/mcp",
      "@community-api/mcp/Credentials",
      "@community-api/mcp/Tools",
      "@community-api/mcp/internal/x"
    ]
    for (const hidden of hiddenSpecifiers) {
      expect(failureFrom("apps/cli", hidden), hidden).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    }
  })

  it("the server's modules resolve, its program does not", () => {
    expect(resolveFrom("tests/package", "@community-api/server/Sandbox")).toBe(
      path.join(root, "lines/effect3/server/src/Sandbox.ts")
    )
    expect(failureFrom("tests/package", "@community-api/server/bin")).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
  })

  for (const { dir, name } of programs) {
    it(`${name}: its program is a side effect and cannot be imported`, async () => {
      const pkg = await manifest(dir)
      expect(Object.keys(pkg.bin ?? {})).toHaveLength(1)
      expect(pkg.sideEffects).toEqual(expect.arrayContaining(["./src/bin.ts", "./dist/bin.js", "./bin/*.js"]))
      // The package's own name resolves through its exports (self-reference), as another package's would.
      expect(failureFrom(dir, `${name}/bin`)).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED")
    })
  }

  it("the libraries without a program have no module that acts when loaded", async () => {
    for (const dir of ["packages/core", "lines/effect3/schema", "lines/effect3/client"]) {
      const pkg = await manifest(dir)
      expect(pkg.bin, dir).toBeUndefined()
      expect(pkg.sideEffects, dir).toBe(false)
    }
  })
})
