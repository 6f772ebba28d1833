/**
 * Builds `docs/conformance.md`: every rule of `docs/rules.md`, the tests that name it
 * (test titles starting with rule IDs) and the assumptions written for it (`docs/assumptions/*.md`).
 *
 * Run `pnpm conformance` to write the file, `pnpm conformance --check` to fail when it is out of
 * date or when a rule has neither a test nor a note.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"

/** A rule of `docs/rules.md`. */
export interface Rule {
  readonly id: string
  readonly text: string
  /** The group heading, e.g. `C: conventions`. */
  readonly group: string
}

/** A test (or a `describe` block) whose title starts with rule IDs. */
export interface TestTitle {
  /** The package folder name: `schema`, `server`, `client`, `cli`; `effect4/client` for the Effect 4 line's. */
  readonly pkg: string
  /** The file, relative to the package's `test` folder. */
  readonly file: string
  /** The title as written in the source (a template literal keeps its `${…}` parts). */
  readonly title: string
  readonly ids: ReadonlyArray<string>
}

/** An assumption or note: a bullet `- **ID ID** text` of `docs/assumptions/<pkg>.md`. */
export interface Assumption {
  readonly pkg: string
  readonly ids: ReadonlyArray<string>
  readonly text: string
}

/** Everything the document is built from. */
export interface Input {
  readonly rules: ReadonlyArray<Rule>
  readonly tests: ReadonlyArray<TestTitle>
  readonly assumptions: ReadonlyArray<Assumption>
  /** The table of suites of `docs/reliability.md` (what each suite proves), when there is one. */
  readonly suites?: string | undefined
}

/** The table under `## Suites` of `docs/reliability.md`, with links made relative to `docs/`. */
export const parseSuites = (text: string): string | undefined => {
  const match = /^## Suites\n\n([\s\S]*?)(?=\n## |(?![\s\S]))/m.exec(text)
  return match?.[1]?.trim()
}

/** The package columns, in this order; other packages that have tests are added after them. */
export const packageColumns = ["schema", "server", "client", "cli"] as const

const idToken = /^([A-Z]\d{1,2})(?:\.\d+)?$/

/** The rule IDs at the start of a title (`"L2 L5 creation …"` gives L2, L5); `L2.3` counts as L2. */
export const leadingIds = (title: string): Array<string> => {
  const ids: Array<string> = []
  for (const word of title.split(/\s+/)) {
    const match = idToken.exec(word.replace(/[,:]$/, ""))
    if (match === null) break
    if (!ids.includes(match[1]!)) ids.push(match[1]!)
    if (/[:]$/.test(word)) break
  }
  return ids
}

/** Reads the rules of `docs/rules.md` with their group headings. */
export const parseRules = (text: string): Array<Rule> => {
  const rules: Array<Rule> = []
  let group = ""
  for (const line of text.split("\n")) {
    const heading = /^## (.+)$/.exec(line)
    if (heading !== null) group = heading[1]!.trim()
    const rule = /^- ([A-Z]\d{1,2}) (.+)$/.exec(line)
    if (rule !== null) rules.push({ id: rule[1]!, text: rule[2]!.trim(), group })
  }
  return rules
}

const titleCall =
  /(?<![\w.])(?:it(?:\.(?:effect|scoped|prop|live|scopedLive))?|test|describe|scenario)\(\s*(?:"((?:\\.|[^"\\])*)"|'((?:\\.|[^'\\])*)'|`((?:\\.|[^`\\])*)`)/g

/** The titles with leading rule IDs in the source of one test file. */
export const parseTestTitles = (pkg: string, file: string, source: string): Array<TestTitle> =>
  [...source.matchAll(titleCall)].flatMap((match) => {
    const title = (match[1] ?? match[2] ?? match[3] ?? "").replace(/\\(.)/g, "$1")
    const ids = leadingIds(title)
    return ids.length === 0 ? [] : [{ pkg, file, title, ids }]
  })

/** The bullets `- **ID ID** text` of an assumptions file. */
export const parseAssumptions = (pkg: string, text: string): Array<Assumption> =>
  text.split("\n").flatMap((line) => {
    const match = /^- \*\*([A-Z0-9. ]+)\*\*:?\s*(.*)$/.exec(line.trim())
    if (match === null) return []
    const ids = leadingIds(match[1]!.trim())
    return ids.length === 0 ? [] : [{ pkg, ids, text: match[2]!.trim() }]
  })

const cell = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\|/g, "\\|").replace(/</g, "&lt;")

const columnsOf = (tests: ReadonlyArray<TestTitle>): Array<string> => [
  ...packageColumns,
  ...[...new Set(tests.map((t) => t.pkg))].filter((p) => !(packageColumns as ReadonlyArray<string>).includes(p))
    .sort()
]

/** The rules that have neither a test nor an assumption or note. */
export const uncovered = (input: Input): Array<Rule> =>
  input.rules.filter((rule) =>
    !input.tests.some((t) => t.ids.includes(rule.id)) && !input.assumptions.some((a) => a.ids.includes(rule.id))
  )

/** Builds the Markdown document. Pure: the same input always gives the same text. */
export const render = (input: Input): string => {
  const columns = columnsOf(input.tests)
  const known = new Set(input.rules.map((r) => r.id))
  const groups = [...new Set(input.rules.map((r) => r.group))]
  const missing = uncovered(input)
  const tested = input.rules.filter((r) => input.tests.some((t) => t.ids.includes(r.id))).length
  const lines: Array<string> = [
    "# Conformance",
    "",
    "Generated by `pnpm conformance` from the rule index [rules.md](rules.md), the titles of the tests",
    "in `packages/*/test`, `lines/*/*/test`, `apps/*/test` and `tests/client-behaviour/scenarios` (the client's",
    "scenarios, written once and run by both lines' clients) that start with rule IDs, and the bullets of",
    "`docs/assumptions/*.md`. Do not edit by hand; `pnpm conformance --check` fails when this file is",
    "out of date or when a rule has neither a test nor a note.",
    "",
    "The `effect4/…` columns are the Effect 4 line's packages (see [effect4.md](effect4.md)); the other",
    "columns are the Effect 3 line's and the packages both lines share.",
    "",
    "A title written as a template literal stands for the family of tests it generates (one per",
    "operation, field or value); its `${…}` parts are kept as written.",
    "",
    `Rules: ${input.rules.length}; with tests: ${tested}; with only assumptions or notes: ${
      input.rules.length - tested - missing.length
    }; with neither: ${missing.length}${missing.length > 0 ? ` (${missing.map((r) => r.id).join(", ")})` : ""}.`,
    ""
  ]
  for (const group of groups) {
    lines.push(`## ${group}`, "", `| ID | Rule | ${columns.join(" | ")} | Assumptions and notes |`)
    lines.push(`|---|---|${columns.map(() => "---|").join("")}---|`)
    for (const rule of input.rules.filter((r) => r.group === group)) {
      const perPackage = columns.map((pkg) =>
        input.tests.filter((t) => t.pkg === pkg && t.ids.includes(rule.id)).map((t) => cell(`${t.file} › ${t.title}`))
          .join("<br>")
      )
      const notes = input.assumptions.filter((a) => a.ids.includes(rule.id)).map((a) => cell(`${a.pkg}: ${a.text}`))
      lines.push(`| ${rule.id} | ${cell(rule.text)} | ${perPackage.join(" | ")} | ${notes.join("<br>")} |`)
    }
    lines.push("")
  }
  if (input.suites !== undefined) {
    lines.push(
      "## Reliability and security suites",
      "",
      "Suites that prove properties across many rules at once, from [reliability.md](reliability.md):",
      "",
      input.suites,
      ""
    )
  }
  lines.push("## Assumptions by package", "")
  for (const pkg of [...new Set(input.assumptions.map((a) => a.pkg))]) {
    lines.push(`### ${pkg}`, "")
    for (const a of input.assumptions.filter((a) => a.pkg === pkg)) lines.push(`- **${a.ids.join(" ")}** ${a.text}`)
    lines.push("")
  }
  const unknown = [...new Set(input.tests.flatMap((t) => t.ids).filter((id) => !known.has(id)))].sort()
  if (unknown.length > 0) {
    lines.push(
      "## IDs not in rules.md",
      "",
      `Tests name these IDs, which rules.md does not have: ${unknown.join(", ")}.`,
      ""
    )
  }
  return lines.join("\n")
}

const testFiles = (dir: string): Array<string> =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".test.ts") && !f.split(/[\\/]/).includes("node_modules")).sort()
    : []

/** The folders that hold packages; the Effect 4 line's packages are named with their folder. */
const packageParents = [
  { folder: "packages", label: (pkg: string) => pkg },
  { folder: "lines/effect3", label: (pkg: string) => pkg },
  { folder: "apps", label: (pkg: string) => pkg },
  { folder: "lines/effect4", label: (pkg: string) => `effect4/${pkg}` }
] as const

/** The rule-named test titles of one package folder (`root/parent/pkg/test`), under the package's label. */
export const packageTests = (root: string, parent: string, pkg: string, label: string = pkg): Array<TestTitle> => {
  const dir = join(root, parent, pkg, "test")
  return testFiles(dir).flatMap((file) =>
    parseTestTitles(label, file.replace(/\\/g, "/"), readFileSync(join(dir, file), "utf8"))
  )
}

/** The client's scenarios, written once (`tests/client-behaviour/scenarios`): tests of both lines' clients. */
export const scenarioTests = (root: string): Array<TestTitle> => {
  const dir = join(root, "tests", "client-behaviour", "scenarios")
  if (!existsSync(dir)) return []
  const files = readdirSync(dir).filter((f) => f.endsWith(".ts") && f !== "index.ts").sort()
  return ["client", "effect4/client"].flatMap((label) =>
    files.flatMap((file) => parseTestTitles(label, `scenarios/${file}`, readFileSync(join(dir, file), "utf8")))
  )
}

/** Gathers the input from a repository root; everything it reads is inside it (rules in `docs/rules.md`). */
export const collect = (root: string): Input => {
  const rules = parseRules(readFileSync(join(root, "docs", "rules.md"), "utf8"))
  const tests = packageParents.flatMap(({ folder, label }) => {
    const base = join(root, folder)
    if (!existsSync(base)) return []
    return readdirSync(base).sort().flatMap((pkg) => packageTests(root, folder, pkg, label(pkg)))
  })
  tests.push(...scenarioTests(root))
  const assumptionsDir = join(root, "docs", "assumptions")
  const assumptions = existsSync(assumptionsDir)
    ? readdirSync(assumptionsDir).filter((f) => f.endsWith(".md")).sort().flatMap((f) =>
      parseAssumptions(f.replace(/\.md$/, ""), readFileSync(join(assumptionsDir, f), "utf8"))
    )
    : []
  const reliability = join(root, "docs", "reliability.md")
  const suites = existsSync(reliability) ? parseSuites(readFileSync(reliability, "utf8")) : undefined
  return { rules, tests, assumptions, suites }
}

/** The repository root: the folder above `scripts/`. */
export const repoRoot = fileURLToPath(new URL("..", import.meta.url))

/** Where the document lives. */
export const outputPath = (root: string): string => join(root, "docs", "conformance.md")

/** Writes the document, or with `--check` tells whether it is current and complete; returns the exit code. */
export const main = (argv: ReadonlyArray<string>, root: string = repoRoot): number => {
  const input = collect(root)
  const text = render(input)
  const path = outputPath(root)
  if (!argv.includes("--check")) {
    writeFileSync(path, text)
    console.log(`wrote ${relative(process.cwd(), path)}`)
    return 0
  }
  let code = 0
  if (!existsSync(path) || readFileSync(path, "utf8") !== text) {
    console.error(`${relative(process.cwd(), path)} is out of date: run \`pnpm conformance\``)
    code = 1
  }
  const missing = uncovered(input)
  if (missing.length > 0) {
    console.error(`rules with neither a test nor a note: ${missing.map((r) => r.id).join(", ")}`)
    code = 1
  }
  return code
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = main(process.argv.slice(2))
}
