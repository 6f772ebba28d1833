/**
 * No module of the workspace's sources (the `src/` of every package under `packages/` and `apps/`)
 * imports itself back while it loads: a cycle of load-time imports leaves one module reading another's exports before they are
 * defined, whatever order a bundler or Node picks. Type-only imports (`import type`, `export type`)
 * are erased and a dynamic `import()` runs after loading, so neither is an edge (as in Effect's own
 * modules, which import each other's types freely). An `import { type X }` whose names are all types
 * is an edge all the same: under `verbatimModuleSyntax` (tsconfig.base.json) it is emitted as
 * `import {} from`, which loads the module.
 *
 * Imports are resolved as Node resolves them here: a relative `.js` to its `.ts` source, and a
 * workspace package (`@community-api/schema`, `@community-api/client/Pacing`, …) through the `exports`
 * of its package.json to the file under its `src/`. Every such import must name a source file, or a
 * cycle through it would go unseen. A dynamic `import()` must not point back at a module that loads
 * its importer either: what it loads on demand would then be loaded by the importer's own loading.
 *
 * It lives beside the package test because this test's turbo inputs are every library's and app's
 * sources. The sources are parsed with the TypeScript compiler; nothing is built or type-checked.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { relative, root, typeScriptFiles } from "./support/sources.js"

/** A package of the workspace: its folder and the `exports` of its package.json. */
interface Package {
  readonly dir: string
  readonly exports: unknown
}

/** Where the sources are read from: the disk, or a few files in memory for the self-check. */
interface Host {
  readonly read: (file: string) => string
  readonly exists: (file: string) => boolean
  readonly packages: ReadonlyMap<string, Package>
  /** A file as the graph and its reports name it. */
  readonly name: (file: string) => string
}

/** The imports of a set of files, resolved to files and named by {@link Host.name}. */
interface Graph {
  /** The load-time imports of each file. */
  readonly edges: ReadonlyMap<string, ReadonlyArray<string>>
  /** The dynamic `import()`s of each file. */
  readonly dynamic: ReadonlyMap<string, ReadonlyArray<string>>
  /** `file: specifier` of every relative or workspace import that names no source file. */
  readonly unresolved: ReadonlyArray<string>
}

/** The target of `subpath` in an `exports` map, as Node matches it: an exact key, else the longest pattern. */
const exportTarget = (exports: unknown, subpath: string): string | undefined => {
  const pick = (target: unknown, star = ""): string | undefined => {
    if (typeof target === "string") return target.replace("*", star)
    if (typeof target === "object" && target !== null) {
      const conditions = target as Record<string, unknown>
      return pick(conditions.import ?? conditions.default, star)
    }
    return undefined
  }
  if (typeof exports === "string") return subpath === "." ? exports : undefined
  if (typeof exports !== "object" || exports === null) return undefined
  const map = exports as Record<string, unknown>
  if (subpath in map) return pick(map[subpath])
  const patterns = Object.keys(map).filter((key) => key.includes("*"))
    .sort((a, b) => b.indexOf("*") - a.indexOf("*"))
  for (const pattern of patterns) {
    const [before, after] = pattern.split("*") as [string, string]
    if (subpath.startsWith(before) && subpath.endsWith(after) && subpath.length >= before.length + after.length) {
      return pick(map[pattern], subpath.slice(before.length, subpath.length - after.length))
    }
  }
  return undefined
}

/**
 * The file `specifier` names from `file`: a source file, `null` for what is not one of the
 * workspace's sources (a dependency, a JSON or JavaScript file), `undefined` when it names nothing.
 */
const resolveImport = (host: Host, file: string, specifier: string): string | null | undefined => {
  if (specifier.startsWith(".")) {
    const target = path.resolve(path.dirname(file), specifier)
    const source = target.replace(/\.js$/, ".ts")
    if (source.endsWith(".ts") && host.exists(source)) return source
    return host.exists(target) ? null : undefined
  }
  const segments = specifier.split("/")
  const name = segments.slice(0, specifier.startsWith("@") ? 2 : 1).join("/")
  const pkg = host.packages.get(name)
  if (pkg === undefined) return null
  const target = exportTarget(pkg.exports, `.${specifier.slice(name.length)}`)
  if (target === undefined) return undefined
  const source = path.resolve(pkg.dir, target)
  return host.exists(source) ? source : undefined
}

/** The specifiers a file imports at load time, and those it imports dynamically. */
const importsOf = (file: string, text: string) => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const loads: Array<string> = []
  const dynamic: Array<string> = []
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      if (statement.importClause?.isTypeOnly !== true) loads.push(statement.moduleSpecifier.text)
    } else if (
      ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      if (!statement.isTypeOnly) loads.push(statement.moduleSpecifier.text)
    } else if (
      ts.isImportEqualsDeclaration(statement) && !statement.isTypeOnly &&
      ts.isExternalModuleReference(statement.moduleReference) &&
      ts.isStringLiteral(statement.moduleReference.expression)
    ) {
      loads.push(statement.moduleReference.expression.text)
    }
  }
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length > 0 && ts.isStringLiteralLike(node.arguments[0]!)
    ) {
      dynamic.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return { loads, dynamic }
}

const graphOf = (host: Host, files: ReadonlyArray<string>): Graph => {
  const edges = new Map<string, ReadonlyArray<string>>()
  const dynamic = new Map<string, ReadonlyArray<string>>()
  const unresolved: Array<string> = []
  const resolveAll = (file: string, specifiers: ReadonlyArray<string>) =>
    specifiers.flatMap((specifier) => {
      const target = resolveImport(host, file, specifier)
      if (target === undefined) unresolved.push(`${host.name(file)}: ${specifier}`)
      return typeof target === "string" ? [host.name(target)] : []
    })
  for (const file of files) {
    const imports = importsOf(file, host.read(file))
    edges.set(host.name(file), resolveAll(file, imports.loads))
    dynamic.set(host.name(file), resolveAll(file, imports.dynamic))
  }
  return { edges, dynamic, unresolved }
}

/** The shortest path of load-time imports from `from` to `to` (both included), if there is one. */
const pathBetween = (
  edges: ReadonlyMap<string, ReadonlyArray<string>>,
  from: string,
  to: string
): ReadonlyArray<string> | undefined => {
  const previous = new Map<string, string>()
  const queue = [from]
  for (let i = 0; i < queue.length; i++) {
    const file = queue[i]!
    for (const next of edges.get(file) ?? []) {
      if (next === to) {
        const found = [file, to]
        for (let at = file; at !== from;) found.unshift(at = previous.get(at)!)
        return found
      }
      if (next !== from && !previous.has(next)) {
        previous.set(next, file)
        queue.push(next)
      }
    }
  }
  return undefined
}

/**
 * One cycle per group of files that import each other (a strongly connected component, by Tarjan's
 * algorithm), from its first file in sorted order back to it, as `a → b → a`.
 */
const cyclesOf = (edges: ReadonlyMap<string, ReadonlyArray<string>>): ReadonlyArray<string> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<string> = []
  const connect = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: Array<string> = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== file)
    const first = component.sort()[0]!
    const cycle = pathBetween(edges, first, first)
    if (cycle !== undefined) cycles.push(cycle.join(" → "))
  }
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) connect(file)
  return cycles.sort()
}

/** Each dynamic `import()` whose module loads its importer back, with the path that does. */
const dynamicBackEdges = (graph: Graph): ReadonlyArray<string> =>
  [...graph.dynamic].flatMap(([file, targets]) =>
    targets.flatMap((target) => {
      const back = target === file ? [file] : pathBetween(graph.edges, target, file)
      return back === undefined ? [] : [`${file} imports dynamically ${back.join(" → ")}`]
    })
  ).sort()

const workspaceRoots = ["packages", "apps", "lines/effect3"].flatMap((group) =>
  readdirSync(path.join(root, group), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(root, group, entry.name, "package.json")))
    .map((entry) => path.join(root, group, entry.name))
)

const disk: Host = {
  read: (file) => readFileSync(file, "utf8"),
  exists: existsSync,
  packages: new Map(workspaceRoots.map((dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
      name: string
      exports?: unknown
    }
    return [manifest.name, { dir, exports: manifest.exports }]
  })),
  name: relative
}

const sources = workspaceRoots.flatMap((dir) =>
  existsSync(path.join(dir, "src")) ? typeScriptFiles(path.join(dir, "src")) : []
)
const workspace = graphOf(disk, sources)

describe("load-time imports of the workspace's sources", () => {
  it("reads the sources of every library and app, and resolves every import of the workspace to a source file", () => {
    for (
      const dir of [
        "packages/core",
        "lines/effect3/schema",
        "lines/effect3/client",
        "lines/effect3/server",
        "apps/cli",
        "apps/mcp"
      ]
    ) {
      expect(sources.map(relative).filter((file) => file.startsWith(`${dir}/src/`)).length, dir).toBeGreaterThan(3)
    }
    expect(workspace.unresolved).toStrictEqual([])
    const across = [...workspace.edges.values()].flat()
    // The graph holds the imports between packages as well as inside them.
    expect(across.filter((file) => file === "lines/effect3/schema/src/index.ts").length).toBeGreaterThan(0)
    expect(across.length).toBeGreaterThan(sources.length)
  })

  it("has no cycle", () => {
    expect(cyclesOf(workspace.edges)).toStrictEqual([])
  })

  it("has no dynamic import() of a module that loads its importer back", () => {
    expect([...workspace.dynamic.values()].flat().length).toBeGreaterThan(0)
    expect(dynamicBackEdges(workspace)).toStrictEqual([])
  })

  it("the check finds a cycle and a dynamic import pointing back, and leaves out type-only and dynamic imports", () => {
    const src = "/w/packages/p/src"
    const files: Record<string, string> = {
      [`${src}/a.ts`]: "import { b } from \"./b.js\"\nimport type { C } from \"./c.js\"\nexport const a = b",
      // Through the package's own name, resolved by its exports.
      [`${src}/b.ts`]: "import * as A from \"@w/p/a\"\nimport { Effect } from \"effect\"\nexport const b = 1",
      // Types only, and a dynamic import: no edge back to a or b.
      [`${src}/c.ts`]: "import type { A } from \"./a.js\"\nexport type { B } from \"./b.js\"\n" +
        "export const lazy = () => import(\"./a.js\")",
      // `{ type A }` still loads a.ts; d and e import each other.
      [`${src}/d.ts`]: "import { type A } from \"./a.js\"\nimport \"./e.js\"",
      [`${src}/e.ts`]: "export * from \"./d.js\"\nimport \"./missing.js\"\nimport \"@w/p/internal/x\"",
      // g loads f on demand, but f loads g at load time.
      [`${src}/f.ts`]: "import { g } from \"./g.js\"\nexport const f = g",
      [`${src}/g.ts`]: "export const g = () => import(\"./f.js\")",
      [`${src}/internal/x.ts`]: "export const x = 1"
    }
    const memory: Host = {
      read: (file) => files[file]!,
      exists: (file) => file in files,
      packages: new Map([["@w/p", { dir: "/w/packages/p", exports: { "./*": "./src/*.ts", "./internal/*": null } }]]),
      name: (file) => path.relative("/w", file)
    }
    const graph = graphOf(memory, Object.keys(files))
    expect(cyclesOf(graph.edges)).toStrictEqual([
      "packages/p/src/a.ts → packages/p/src/b.ts → packages/p/src/a.ts",
      "packages/p/src/d.ts → packages/p/src/e.ts → packages/p/src/d.ts"
    ])
    expect(dynamicBackEdges(graph)).toStrictEqual([
      "packages/p/src/g.ts imports dynamically packages/p/src/f.ts → packages/p/src/g.ts"
    ])
    expect(graph.unresolved).toStrictEqual([
      "packages/p/src/e.ts: ./missing.js",
      "packages/p/src/e.ts: @w/p/internal/x"
    ])
    expect(graph.edges.get("packages/p/src/c.ts")).toStrictEqual([])
  })
})
