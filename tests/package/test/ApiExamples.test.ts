/**
 * The exports that must carry a running example in the API reference, listed in one place
 * ({@link required}), and the check that each does: its JSDoc has an `@example` with a `ts` block, its
 * library's `docgen.json` runs examples (`runExamples`), and its page under `docs/api` shows the
 * example. Docgen's `enforceExamples` asks an example of every export or of none, so the list is ours;
 * `pnpm docs:check` (in `pnpm test`) is what compiles and runs the examples, against the core alone or
 * the in-process reference server, and fails when one fails or a page is stale.
 *
 * Docgen runs the examples of constants, functions, type aliases and interfaces, not those of a
 * class: an example meant to run sits on one of those (the clients' errors' example on their union,
 * `ClientError.ClientError`).
 */
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../../..")

/** By library folder and module: the exports a user calls that must carry a running example. */
const required: { readonly [library: string]: { readonly [module: string]: ReadonlyArray<string> } } = {
  "packages/core": {
    BaseUrl: ["read", "problem"],
    Budget: ["creations", "estimate", "lastCreationAt"],
    Clock: ["manual"],
    ErrorCodes: ["kindOf"],
    Limits: ["takeCreation"],
    SeededRandom: ["make"],
    Wire: ["formatRequestDate", "parseRequestDate"]
  },
  "lines/effect3/client": {
    ClientError: ["ClientError"],
    CommunityApiClient: ["layer"],
    CreationQuota: ["layer"],
    Pacing: ["layer"],
    Paginate: ["stream"]
  },
  "lines/effect4/client": {
    ClientError: ["ClientError"],
    CommunityApiClient: ["layer"],
    CreationQuota: ["layer"],
    Pacing: ["layer"],
    Paginate: ["stream"]
  },
  "lines/effect3/server": {
    Embedded: ["layer"],
    ReferenceServer: ["ReferenceServer", "layer", "layerTest", "toWebHandler", "toWebServer"]
  },
  "lines/effect4/server": {
    Embedded: ["layer"],
    ReferenceServer: ["ReferenceServer", "fetchOf", "layerTest", "make"]
  }
}

/** The JSDoc of each top-level export of a module that has an `@example` with a `ts` block. */
const withExamples = (file: string): ReadonlySet<string> => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
  const found = new Set<string>()
  for (const statement of source.statements) {
    const examples = ts.getJSDocTags(statement).filter((tag) =>
      tag.tagName.text === "example" && /```ts\n/.test(ts.getTextOfJSDocComment(tag.comment) ?? "")
    )
    if (examples.length === 0) continue
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) found.add(declaration.name.getText(source))
    } else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
      statement.name !== undefined
    ) {
      found.add(statement.name.text)
    }
  }
  return found
}

/** The section of a reference page that documents `name`: from its heading to the next. */
const sectionOf = (page: string, name: string): string | undefined => {
  const start = page.search(new RegExp(`^## ${name}( \\((class|type alias|interface)\\))?$`, "m"))
  if (start < 0) return undefined
  const rest = page.slice(start + 3)
  const end = rest.search(/^#{1,2} /m)
  return end < 0 ? rest : rest.slice(0, end)
}

describe("the API reference's examples", () => {
  for (const [library, modules] of Object.entries(required)) {
    it(`${library}: docgen runs its examples`, () => {
      const config = JSON.parse(readFileSync(path.join(root, library, "docgen.json"), "utf8"))
      expect(config.runExamples).toBe(true)
    })
    for (const [module, names] of Object.entries(modules)) {
      it(`${library}/${module}: ${names.join(", ")} carry an example, shown in docs/api`, () => {
        const documented = withExamples(path.join(root, library, "src", `${module}.ts`))
        expect(names.filter((name) => !documented.has(name))).toEqual([])
        const page = path.join(root, "docs", "api", library.replace(/^(packages|lines)\//, ""), `${module}.md`)
        expect(existsSync(page)).toBe(true)
        const text = readFileSync(page, "utf8")
        expect(names.filter((name) => !(sectionOf(text, name)?.includes("**Example**") ?? false))).toEqual([])
      })
    }
  }

  it("the check finds an export without an example", () => {
    expect(withExamples(path.join(root, "packages", "core", "src", "Clock.ts")).has("system")).toBe(false)
  })
})
