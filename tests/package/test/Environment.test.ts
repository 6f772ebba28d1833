/**
 * The environment's names (`COMMUNITY_API_BASE_URL`, `COMMUNITY_API_TOKEN`, `COMMUNITY_API_REDIS_URL`)
 * are written once, in the core's `Environment.ts`: every other source, of either Effect line, reads them from
 * there, so a rename cannot leave one place behind. Only string literals count (comments may name a
 * variable); a literal that merely contains a name, such as a message, counts too.
 */
import { readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { relative, root, typeScriptFiles } from "./support/sources.js"

const names = ["COMMUNITY_API_BASE_URL", "COMMUNITY_API_TOKEN", "COMMUNITY_API_REDIS_URL"]
const home = "packages/core/src/Environment.ts"

/** The names found in the string literals and template parts of a source, with where they stand. */
const literalsNaming = (file: string, text: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      for (const name of names) {
        if (node.text.includes(name)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart())
          found.push(`${relative(file)}:${line + 1} ${name}`)
        }
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const sources = (): ReadonlyArray<string> =>
  ["packages", "apps", "lines/effect3", "lines/effect4"].flatMap((group) =>
    typeScriptFiles(path.join(root, group), (folder) => path.basename(folder) === "node_modules")
      .filter((file) => /^(?:packages|apps|lines\/effect[34])\/[^/]+\/src\//.test(relative(file)))
  )

describe("the environment's names", () => {
  it("each is a string literal in the core's environment module only, among every package's sources", () => {
    const all = sources().flatMap((file) => literalsNaming(file, readFileSync(file, "utf8")))
    expect(all.filter((place) => !place.startsWith(`${home}:`))).toEqual([])
    expect(all.map((place) => place.split(" ")[1]).sort()).toEqual([...names].sort())
  })

  it("the check finds a name in a plain string, a template and a message, and not in a comment", () => {
    const text = [
      `// COMMUNITY_API_TOKEN in a comment`,
      `const a = "COMMUNITY_API_BASE_URL"`,
      "const b = `set ${a} and COMMUNITY_API_TOKEN`",
      `const c = 'no COMMUNITY_API_REDIS_URL here: ' + a`
    ].join("\n")
    expect(literalsNaming(path.join(root, "x.ts"), text)).toEqual([
      "x.ts:2 COMMUNITY_API_BASE_URL",
      "x.ts:3 COMMUNITY_API_TOKEN",
      "x.ts:4 COMMUNITY_API_REDIS_URL"
    ])
  })
})
