/**
 * The exports that must carry a running example in the API reference, listed in one place
 * ({@link required}), and the check that each does: its JSDoc has an `@example` with a `ts` block, its
 * library's `docgen.json` runs examples (`runExamples`), and its page under `docs/api` shows the
 * example. Docgen's `enforceExamples` asks an example of every export or of none, so the list is ours;
 * `pnpm docs:check` (in `pnpm test`) is what compiles and runs the examples, against the core alone or
 * the in-process reference server (the Redis stores' against a local port where no Redis listens,
 * which is what their examples show), and fails when one fails or a page is stale. Every export listed
 * runs: none is exempt.
 *
 * **Which examples run.** `@effect/docgen` 0.5.2 writes out and runs the examples of a module's own
 * JSDoc, of its constants, functions, type aliases, interfaces and namespaces, and of a class's methods
 * and static methods, but never the example of a class itself (`getExamplesFromModules` in its
 * `bin.cjs`). So:
 *
 * - an entry named alone is a constant, function, type alias or interface that carries its own example;
 * - a class (a service's tag, an error), and any export best shown at work through another, is an
 *   entry `{ name, on }`: its running example is the one of `on`, an export of the same module of a
 *   kind docgen runs, whose code names it (the tag of a service on its layer, each error class on the
 *   errors' union);
 * - no class carries an example of its own: it would never run, and could rot unseen.
 *
 * Two lists are derived rather than written: the client's method groups (every section of the core's
 * `Operations.sectionNames` is called as `api.<section>.` in the examples of `Sections`), and the
 * reference server's controls (every member of its `Service` interface is used as `server.<member>` in
 * the examples of `make`).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { sectionNames } from "../../../packages/core/src/Operations.js"

const root = path.resolve(import.meta.dirname, "../../..")

/** An export with its own running example, or one shown at work by the example of `on`. */
type Entry = string | { readonly name: string; readonly on: string }

/** What both clients must show, the same on both lines. */
const client: { readonly [module: string]: ReadonlyArray<Entry> } = {
  Budget: ["toJson"],
  ClientError: [
    "ClientError",
    "isResponseTooLarge",
    ...["TransportError", "TimeoutError", "RequestEncodeError", "CreationQuotaExceeded", "LimiterUnavailable"]
      .map((name) => ({ name, on: "ClientError" })),
    { name: "OutcomeUnknownError", on: "ClientError" },
    { name: "InvalidConfig", on: "ClientError" },
    { name: "ResponseDecodeError", on: "isResponseTooLarge" }
  ],
  CommunityApiClient: [
    "make",
    "layer",
    "layerConfig",
    "Client",
    "Sections",
    { name: "CommunityApiClient", on: "layer" },
    { name: "configFromEnv", on: "layerConfig" }
  ],
  CountStore: ["layerMemory", { name: "CountStore", on: "layerMemory" }],
  CreationQuota: [
    "make",
    "layer",
    "layerFromStore",
    "layerRedis",
    "layerRedisConfig",
    { name: "CreationQuota", on: "layer" }
  ],
  Lane: ["withLane", "batch", "interactive", "current"],
  Metrics: ["calls"],
  Pacing: ["make", "layer", "layerFromStore", "layerRedis", "layerRedisConfig", { name: "Pacing", on: "layer" }],
  Paginate: ["pages", "stream"],
  PermitStore: ["layerMemory", { name: "PermitStore", on: "layerMemory" }],
  RedisStore: ["layerPermits", "layerCounts"],
  Retry: ["defaultPolicy", "never"],
  Target: ["resolve", "fromSettings", "layer", { name: "MissingToken", on: "fromSettings" }]
}

/** By library folder and module: the exports a user calls that must carry a running example. */
const required: { readonly [library: string]: { readonly [module: string]: ReadonlyArray<Entry> } } = {
  "packages/core": {
    BaseUrl: ["read", "problem"],
    Budget: ["creations", "estimate", "lastCreationAt"],
    Clock: ["manual"],
    ErrorCodes: ["kindOf"],
    Lane: ["of"],
    Limits: ["takeCreation"],
    RedisUrl: ["describeUrl"],
    RetryTable: ["decide"],
    SeededRandom: ["make"],
    Target: ["choose", "limitersOf"],
    UserKey: ["ofToken"],
    Wire: ["formatRequestDate", "parseRequestDate"]
  },
  "lines/effect3/client": client,
  "lines/effect4/client": client,
  "lines/effect3/server": {
    Embedded: ["layer"],
    Fixture: ["decode", "loadFile", { name: "encode", on: "decode" }],
    InProcess: ["makeHttpClient", "layerHttpClient"],
    ReferenceServer: [
      "make",
      "layer",
      "layerTest",
      "layerInProcessClient",
      "layerServe",
      "httpApp",
      "toWebHandler",
      "toWebServer",
      { name: "ReferenceServer", on: "make" }
    ],
    Sandbox: ["run"]
  },
  "lines/effect4/server": {
    Embedded: ["layer"],
    ReferenceServer: ["make", "layerTest", "fetchOf", "clockOf", "awaitWaits", { name: "ReferenceServer", on: "make" }]
  }
}

/** The clients' method groups: every section, called in the examples of `Sections`. */
const groups = { module: "CommunityApiClient", on: "Sections" }

/** The reference servers' controls: every member of `Service`, used in the examples of `make`. */
const controls = { module: "ReferenceServer", of: "Service", on: "make" }

const nameOf = (entry: Entry) => typeof entry === "string" ? entry : entry.name
const carrierOf = (entry: Entry) => typeof entry === "string" ? entry : entry.on

/** A module's top-level statements, and the names each declares. */
const declarations = (file: string) => {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true)
  return source.statements.map((statement) => {
    const names = ts.isVariableStatement(statement)
      ? statement.declarationList.declarations.map((declaration) => declaration.name.getText(source))
      : (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement) ||
          ts.isTypeAliasDeclaration(statement) || ts.isInterfaceDeclaration(statement)) &&
          statement.name !== undefined
      ? [statement.name.text]
      : []
    const examples = ts.getJSDocTags(statement)
      .filter((tag) => tag.tagName.text === "example")
      .map((tag) => ts.getTextOfJSDocComment(tag.comment) ?? "")
      .filter((text) => /```ts\n/.test(text))
    return { statement, names, examples }
  })
}

/**
 * The code of the examples of each top-level export that docgen runs (a constant, function, type alias
 * or interface; never a class), by name.
 */
const runningExamples = (file: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const found = new Map<string, ReadonlyArray<string>>()
  for (const { examples, names, statement } of declarations(file)) {
    if (examples.length === 0 || ts.isClassDeclaration(statement)) continue
    for (const name of names) found.set(name, examples)
  }
  return found
}

/** The classes of a module that carry an example, which docgen would never run. */
const classesWithExamples = (file: string): ReadonlyArray<string> =>
  declarations(file).filter(({ examples, statement }) => ts.isClassDeclaration(statement) && examples.length > 0)
    .flatMap(({ names }) => names)

/** The names a module declares at its top level. */
const declared = (file: string): ReadonlySet<string> => new Set(declarations(file).flatMap(({ names }) => names))

/** The members of an interface of a module. */
const membersOf = (file: string, name: string): ReadonlyArray<string> => {
  const found = declarations(file).find(({ names, statement }) =>
    ts.isInterfaceDeclaration(statement) && names[0] === name
  )
  if (found === undefined || !ts.isInterfaceDeclaration(found.statement)) return []
  return found.statement.members.flatMap((member) =>
    member.name !== undefined && ts.isIdentifier(member.name) ? [member.name.text] : []
  )
}

/** The section of a reference page that documents `name`: from its heading to the next. */
const sectionOf = (page: string, name: string): string | undefined => {
  const start = page.search(new RegExp(`^## ${name}( \\((class|type alias|interface)\\))?$`, "m"))
  if (start < 0) return undefined
  const rest = page.slice(start + 3)
  const end = rest.search(/^#{1,2} /m)
  return end < 0 ? rest : rest.slice(0, end)
}

const sourceOf = (library: string, module: string) => path.join(root, library, "src", `${module}.ts`)

describe("the API reference's examples", () => {
  for (const [library, modules] of Object.entries(required)) {
    it(`${library}: docgen runs its examples`, () => {
      const config = JSON.parse(readFileSync(path.join(root, library, "docgen.json"), "utf8"))
      expect(config.runExamples).toBe(true)
    })
    for (const [module, entries] of Object.entries(modules)) {
      it(`${library}/${module}: ${entries.map(nameOf).join(", ")} shown by a running example in docs/api`, () => {
        const file = sourceOf(library, module)
        const exports = declared(file)
        expect(entries.map(nameOf).filter((name) => !exports.has(name))).toEqual([])
        const running = runningExamples(file)
        expect(entries.map(carrierOf).filter((name) => !running.has(name))).toEqual([])
        // A name shown by another's example is named in its code.
        const unnamed = entries.filter((entry) =>
          typeof entry !== "string" &&
          !(running.get(entry.on) ?? []).some((code) => new RegExp(`\\b${entry.name}\\b`).test(code))
        )
        expect(unnamed).toEqual([])
        const page = path.join(root, "docs", "api", library.replace(/^(packages|lines)\//, ""), `${module}.md`)
        expect(existsSync(page)).toBe(true)
        const text = readFileSync(page, "utf8")
        expect(entries.map(carrierOf).filter((name) => !(sectionOf(text, name)?.includes("**Example**") ?? false)))
          .toEqual([])
      })
    }
    it(`${library}: no class carries an example (docgen never runs it)`, () => {
      const folder = path.join(root, library, "src")
      const modules = readdirSync(folder).filter((file) => file.endsWith(".ts"))
      expect(modules.flatMap((file) => classesWithExamples(path.join(folder, file)).map((name) => `${file}: ${name}`)))
        .toEqual([])
    })
  }

  for (const library of ["lines/effect3/client", "lines/effect4/client"]) {
    it(`${library}: every method group is called in the examples of ${groups.on}`, () => {
      const code = (runningExamples(sourceOf(library, groups.module)).get(groups.on) ?? []).join("\n")
      expect(sectionNames.length).toBeGreaterThan(0)
      expect(sectionNames.filter((section) => !code.includes(`api.${section}.`))).toEqual([])
    })
  }

  for (const library of ["lines/effect3/server", "lines/effect4/server"]) {
    it(`${library}: every control of ${controls.of} is used in the examples of ${controls.on}`, () => {
      const file = sourceOf(library, controls.module)
      const members = membersOf(file, controls.of)
      const code = (runningExamples(file).get(controls.on) ?? []).join("\n")
      expect(members.length).toBeGreaterThan(0)
      expect(members.filter((member) => !new RegExp(`server\\.${member}\\b`).test(code))).toEqual([])
    })
  }

  it("the checks find an export without an example, and a class's example that would not run", () => {
    expect(runningExamples(sourceOf("packages/core", "Clock")).has("system")).toBe(false)
    const file = path.join(mkdtempSync(path.join(tmpdir(), "api-examples-")), "Module.ts")
    writeFileSync(file, "/**\n * @example\n * ```ts\n * new A()\n * ```\n */\nexport class A {}\n")
    expect(classesWithExamples(file)).toEqual(["A"])
    expect(runningExamples(file).has("A")).toBe(false)
  })
})
