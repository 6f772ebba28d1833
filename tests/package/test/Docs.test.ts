/**
 * The libraries' public modules document every export as Effect's own modules do: each exported
 * definition carries `@since` and `@category` in its JSDoc, the category taken from a small
 * vocabulary of Effect's words; an `export * as X` of an index carries `@since` only (as in effect's
 * `index.ts`). A public module is any file under a library's `src/` but not under `src/internal/`,
 * which `package.json` closes to users.
 *
 * The check lives here, beside the package test, because it reads the sources of all the libraries
 * and this test's turbo inputs are exactly those sources: a change to any library's `src/` reruns it.
 * The sources are parsed with the TypeScript compiler; nothing is built or type-checked.
 */
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../../..")
/** The libraries, by folder: the core, the Effect 3 line's three and the Effect 4 line's three. */
const libraries = [
  "packages/core",
  "lines/effect3/schema",
  "lines/effect3/client",
  "lines/effect3/server",
  "lines/effect4/schema",
  "lines/effect4/client",
  "lines/effect4/server"
] as const

/** The categories in use, all of them words of Effect's own modules; keep the list small. */
const categories: ReadonlySet<string> = new Set([
  "constants",
  "constructors",
  "decoding",
  "encoding",
  "errors",
  "execution",
  "guards",
  "layers",
  "models",
  "options",
  "schemas",
  "tags",
  "type-level",
  "utils"
])

/** An exported definition or re-export, where it is and what its JSDoc lacks. */
interface Export {
  readonly where: string
  readonly problems: ReadonlyArray<string>
}

const tagText = (tags: ReadonlyArray<ts.JSDocTag>, name: string): string | undefined => {
  const tag = tags.find((t) => t.tagName.text === name)
  return tag === undefined ? undefined : (ts.getTextOfJSDocComment(tag.comment) ?? "").trim()
}

/** What the JSDoc tags of a definition lack: `@since` always, `@category` (from the vocabulary) unless not asked. */
const problemsOf = (tags: ReadonlyArray<ts.JSDocTag>, needsCategory: boolean): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const since = tagText(tags, "since")
  if (since === undefined || since === "") problems.push("no @since")
  if (needsCategory) {
    const category = tagText(tags, "category")
    if (category === undefined || category === "") problems.push("no @category")
    else if (!categories.has(category)) problems.push(`@category ${category} is not one of the vocabulary`)
  }
  return problems
}

const isExported = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)

const isAmbient = (node: ts.Node): boolean =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.DeclareKeyword)

/** Every exported definition and re-export of a module, namespace members included. */
const exportsOf = (file: string, text: string): ReadonlyArray<Export> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: Array<Export> = []
  const at = (node: ts.Node, name: string) =>
    `${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${name}`
  const visit = (statements: ReadonlyArray<ts.Statement>, prefix: string, allExported: boolean) => {
    let previous: ts.Statement | undefined
    for (const statement of statements) {
      const overload = ts.isFunctionDeclaration(statement) && previous !== undefined &&
        ts.isFunctionDeclaration(previous) && previous.name?.text === statement.name?.text
      previous = statement
      if (ts.isExportDeclaration(statement)) {
        const clause = statement.exportClause
        if (clause === undefined || ts.isNamespaceExport(clause)) {
          // `export * as X from` (and `export * from`): the module it names documents its own exports.
          const name = clause === undefined ? "*" : clause.name.text
          found.push({ where: at(statement, name), problems: problemsOf(ts.getJSDocTags(statement), false) })
        } else {
          // `export { a, b }`: documented on the whole list or, as effect does, on each name.
          for (const element of clause.elements) {
            const own = ts.getJSDocTags(element)
            const tags = own.length > 0 ? own : ts.getJSDocTags(statement)
            found.push({ where: at(element, prefix + element.name.text), problems: problemsOf(tags, true) })
          }
        }
        continue
      }
      if (ts.isExportAssignment(statement)) {
        found.push({ where: at(statement, "default"), problems: problemsOf(ts.getJSDocTags(statement), true) })
        continue
      }
      if (!(allExported || isExported(statement)) || overload) continue
      const tags = ts.getJSDocTags(statement)
      if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) {
          found.push({
            where: at(declaration, prefix + declaration.name.getText(source)),
            problems: problemsOf(tags, true)
          })
        }
      } else if (
        ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement) || ts.isModuleDeclaration(statement) || ts.isImportEqualsDeclaration(statement)
      ) {
        const name = statement.name?.getText(source) ?? "default"
        found.push({ where: at(statement, prefix + name), problems: problemsOf(tags, true) })
        if (ts.isModuleDeclaration(statement) && statement.body !== undefined && ts.isModuleBlock(statement.body)) {
          visit(statement.body.statements, `${prefix}${name}.`, isAmbient(statement))
        }
      }
    }
  }
  visit(source.statements, "", false)
  return found
}

/** The public modules of a library: every `.ts` file under `src/` but not under `src/internal/`. */
const publicModules = (library: string): ReadonlyArray<string> => {
  const modules: Array<string> = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) {
        // Internal modules, and the Effect 4 line's generated ones (written by the Effect 3 line's
        // generator, which documents every export the same way), are not read here.
        if (
          full !== path.join(root, library, "src", "internal") && full !== path.join(root, library, "src", "generated")
        ) {
          walk(full)
        }
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        modules.push(path.relative(root, full))
      }
    }
  }
  walk(path.join(root, library, "src"))
  return modules.sort()
}

const modules = libraries.flatMap(publicModules)
const all = modules.map((module) => {
  const text = readFileSync(path.join(root, module), "utf8")
  return { module, exporting: /^export /m.test(text), exports: exportsOf(module.split(path.sep).join("/"), text) }
})

describe("JSDoc of the libraries' public modules", () => {
  it("reads every public module of the libraries and finds the exports of each", () => {
    for (const library of libraries) {
      expect(modules).toContain(path.join(library, "src", "index.ts"))
    }
    expect(modules.filter((module) => module.split(path.sep).includes("internal"))).toStrictEqual([])
    expect(all.filter((m) => m.exporting && m.exports.length === 0).map((m) => m.module)).toStrictEqual([])
  })

  it("every exported definition carries @since and a @category of the vocabulary; every namespace re-export @since", () => {
    const lacking = all.flatMap((m) => m.exports.filter((e) => e.problems.length > 0))
      .map((e) => `${e.where}: ${e.problems.join(", ")}`)
    expect(lacking).toStrictEqual([])
    expect(all.flatMap((m) => m.exports).length).toBeGreaterThan(300)
  })

  it("the check finds a missing @category or @since, a category outside the vocabulary and an undocumented name", () => {
    const found = exportsOf(
      "probe.ts",
      [
        "/** A value. @since 0.1.0 */",
        "export const noCategory = 1",
        "/**",
        " * A type.",
        " *",
        " * @category models",
        " */",
        "export type NoSince = string",
        "/**",
        " * @since 0.1.0",
        " * @category calendar",
        " */",
        "export const strayCategory = 2",
        "export interface Bare {}",
        "/**",
        " * @since 0.1.0",
        " * @category models",
        " */",
        "export declare namespace Space {",
        "  export type Member = string",
        "}",
        "export * as Other from \"./Other.js\"",
        "/** @since 0.1.0 */",
        "export * as Documented from \"./Documented.js\"",
        "const local = 3",
        "export {",
        "  /**",
        "   * @since 0.1.0",
        "   * @category constants",
        "   */",
        "  local",
        "}"
      ].join("\n")
    )
    expect(found.map((e) => `${e.where}: ${e.problems.join(", ") || "documented"}`)).toStrictEqual([
      "probe.ts:2 noCategory: no @category",
      "probe.ts:8 NoSince: no @since",
      "probe.ts:13 strayCategory: @category calendar is not one of the vocabulary",
      "probe.ts:14 Bare: no @since, no @category",
      "probe.ts:19 Space: documented",
      "probe.ts:20 Space.Member: no @since, no @category",
      "probe.ts:22 Other: no @since",
      "probe.ts:24 Documented: documented",
      "probe.ts:31 local: documented"
    ])
  })
})
