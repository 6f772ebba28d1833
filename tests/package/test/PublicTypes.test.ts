/**
 * No public module's type names an internal one: what a user's editor shows of a public export, and
 * what the published `.d.ts` declares, is made of public modules alone. `package.json` closes
 * `src/internal/` to users (`"./internal/*": null`), so a public type that named an internal one
 * would name something a user cannot import, and a change inside `internal/` would change the
 * public API unseen.
 *
 * Each public module (a library's `src/` outside `src/internal/`) is turned into its declarations by
 * the TypeScript compiler, file by file and without a type-check (`transpileDeclaration`, the emit of
 * `isolatedDeclarations`): the declarations must import nothing under `internal/`. Where a type is
 * inferred, which that emit cannot do alone (an unannotated export, a class extending a call), the
 * expression it is inferred from must name no binding imported from `internal/` either, since its
 * type may then be an internal one. Nothing is built or type-checked.
 *
 * It lives beside the package test because this test's turbo inputs are the libraries' sources, and
 * the package test consumes exactly those declarations.
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { relative, root, typeScriptFiles } from "./support/sources.js"

/** The libraries checked. */
const libraries = ["core", "schema", "client", "server"] as const

/** Whether an import specifier names a module under `internal/` (relative, or a package's subpath). */
const isInternal = (specifier: string): boolean => specifier.split("/").includes("internal")

const specifierOf = (node: ts.Node): string | undefined => {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined) {
    return ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined
  }
  if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
    return node.argument.literal.text
  }
  return undefined
}

const walk = (node: ts.Node, visit: (node: ts.Node) => void): void => {
  visit(node)
  ts.forEachChild(node, (child) => walk(child, visit))
}

/** The local names a module binds by its imports from `internal/`. */
const internalBindings = (source: ts.SourceFile): ReadonlyMap<string, string> => {
  const bindings = new Map<string, string>()
  for (const statement of source.statements) {
    const specifier = specifierOf(statement)
    if (!ts.isImportDeclaration(statement) || specifier === undefined || !isInternal(specifier)) continue
    const clause = statement.importClause
    if (clause?.name !== undefined) bindings.set(clause.name.text, specifier)
    const named = clause?.namedBindings
    if (named !== undefined && ts.isNamespaceImport(named)) bindings.set(named.name.text, specifier)
    if (named !== undefined && ts.isNamedImports(named)) {
      for (const element of named.elements) bindings.set(element.name.text, specifier)
    }
  }
  return bindings
}

/** Where the public types of one module name an internal module, one line each; empty when nowhere. */
const internalTypesOf = (file: string, text: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const emitted = ts.transpileDeclaration(text, {
    fileName: file,
    reportDiagnostics: true,
    compilerOptions: { strict: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext }
  })
  // What the declarations import or re-export.
  const declarations = ts.createSourceFile(`${file}.d.ts`, emitted.outputText, ts.ScriptTarget.Latest, true)
  walk(declarations, (node) => {
    const specifier = specifierOf(node)
    if (specifier !== undefined && isInternal(specifier)) {
      found.push(`${file}: the declarations name ${specifier}: ${node.getText(declarations).replace(/\s+/g, " ")}`)
    }
  })
  // What the types inferred from an expression may name: the internal bindings in the expression.
  const bindings = internalBindings(source)
  for (const diagnostic of emitted.diagnostics ?? []) {
    if (diagnostic.start === undefined || diagnostic.length === undefined) continue
    const start = diagnostic.start
    const end = start + diagnostic.length
    walk(source, (node) => {
      if (!ts.isIdentifier(node) || node.getStart(source) < start || node.getEnd() > end) return
      const specifier = bindings.get(node.text)
      if (specifier === undefined) return
      const line = source.getLineAndCharacterOfPosition(start).line + 1
      found.push(`${file}:${line}: a type inferred from ${node.text} (${specifier})`)
    })
  }
  return [...new Set(found)]
}

const modules = libraries.flatMap((library) => {
  const src = path.join(root, library === "core" ? "packages" : "lines/effect3", library, "src")
  return typeScriptFiles(src, (folder) => folder === path.join(src, "internal"))
})

describe("Public types of the libraries", () => {
  it("reads the public modules of the libraries, the stores of the client's limiters and the reference server among them", () => {
    const names = modules.map(relative)
    for (const library of libraries) {
      expect(names).toContain(`${library === "core" ? "packages" : "lines/effect3"}/${library}/src/index.ts`)
    }
    expect(names).toContain("lines/effect3/client/src/PermitStore.ts")
    expect(names).toContain("lines/effect3/client/src/CountStore.ts")
    expect(names).toContain("lines/effect3/server/src/ReferenceServer.ts")
    expect(names.filter((name) => name.split("/").includes("internal"))).toStrictEqual([])
  })

  it("no public module's declarations name an internal module, nor infer a type from one", () => {
    const found = modules.flatMap((file) => internalTypesOf(relative(file), readFileSync(file, "utf8")))
    expect(found).toStrictEqual([])
  })

  it("the check finds an internal type in an interface, a re-export and an inferred type, and no internal implementation", () => {
    const probe = (text: string) => internalTypesOf("src/Probe.ts", text)
    const imports = [
      "import type * as Types from \"./internal/types.js\"",
      "import * as Impl from \"./internal/impl.js\"",
      "import { helper } from \"./internal/impl.js\"",
      "import type { Duration } from \"effect\""
    ].join("\n")
    expect(probe(`${imports}\nexport interface A { readonly x: Types.X }`)).toStrictEqual([
      "src/Probe.ts: the declarations name ./internal/types.js: import type * as Types from \"./internal/types.js\";"
    ])
    expect(probe("export type { X } from \"./internal/types.js\"")).toHaveLength(1)
    expect(probe(`${imports}\nexport const make = (n: number) => Impl.make(n)`)).toStrictEqual([
      "src/Probe.ts:5: a type inferred from Impl (./internal/impl.js)"
    ])
    expect(probe(`${imports}\nexport const value = { a: helper() }`)).toStrictEqual([
      "src/Probe.ts:5: a type inferred from helper (./internal/impl.js)"
    ])
    // Annotated, an export may be implemented with internal modules: its type names none.
    expect(probe(`${imports}\nexport const make = (n: number): Duration.Duration => Impl.make(n)`))
      .toStrictEqual([])
    expect(probe(`${imports}\nexport interface B { readonly d: Duration.Duration }\nconst local = helper()`))
      .toStrictEqual([])
  })
})
