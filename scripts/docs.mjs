/**
 * The API reference: `@effect/docgen` over the libraries, arranged into `docs/api/<folder>/<Module>.md`
 * (the folder is the library's place in the repository: `core`, `effect3/schema`, `effect4/server`),
 * with an index of every module, the two lines side by side.
 *
 *   node scripts/docs.mjs            regenerate docs/api
 *   node scripts/docs.mjs --check    fail when docs/api is stale, or docgen fails (an export without a
 *                                    description, an example that does not compile or run)
 *   node scripts/docs.mjs --all      also try the libraries not yet in the reference (see `pending`)
 *
 * Docgen type-checks each library's examples against that library's own `effect` (its `docgen.json`
 * sets the examples' compiler options; an example imports the library by its name and docgen points
 * that import at `src/`) and runs them with `tsx`: the Effect 4 line's on Node 22.19 or later (this
 * Node when it is one, otherwise the oldest maintained line's binary, as the tests use). Docgen writes
 * into each library's `docs/` (ignored by git); this script copies its pages from there.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { nodeOf } from "./node-lines.mjs"
import { root } from "./packages.mjs"

/** The libraries, in the order of the index; `line` is the Effect line a library is written for. */
const libraries = [
  { folder: "packages/core", line: "core" },
  { folder: "lines/effect3/schema", line: "effect3" },
  { folder: "lines/effect4/schema", line: "effect4" },
  { folder: "lines/effect3/client", line: "effect3" },
  { folder: "lines/effect4/client", line: "effect4" },
  { folder: "lines/effect3/server", line: "effect3" },
  { folder: "lines/effect4/server", line: "effect4" }
]

/** Libraries configured for docgen but not yet in the reference, with why. */
const pending = {}

const lineNames = { core: "Core", effect3: "Effect 3", effect4: "Effect 4" }
const reference = path.join(root, "docs", "api")
const args = new Set(process.argv.slice(2))
const check = args.has("--check")
const all = args.has("--all")

const manifestOf = (folder) => JSON.parse(fs.readFileSync(path.join(root, folder, "package.json"), "utf8"))
/** Where a library's pages go under docs/api: its folder without `packages/` and `lines/`. */
const pageFolder = (folder) => folder.replace(/^packages\//, "").replace(/^lines\//, "")

/** A Node of 22.19 or later, for the Effect 4 line: this one when it is, or the oldest line's. */
const node22 = () => {
  const [major, minor] = process.versions.node.split(".").map(Number)
  return major > 22 || (major === 22 && minor >= 19) ? process.execPath : nodeOf("22")
}

/** Runs docgen in a library's folder; its output when it fails. */
const docgen = (library) => {
  const cwd = path.join(root, library.folder)
  fs.rmSync(path.join(cwd, "docs"), { recursive: true, force: true })
  const node = library.line === "effect4" ? node22() : process.execPath
  const bin = path.join(root, "node_modules", ".bin")
  const env = { ...process.env, PATH: [path.dirname(node), bin, process.env.PATH].join(path.delimiter) }
  const started = Date.now()
  const result = spawnSync(node, [path.join(root, "node_modules", "@effect", "docgen", "bin.cjs")], {
    cwd,
    env,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024
  })
  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  const output = `${result.stdout}${result.stderr}`.replace(/\x1b\[[0-9;]*m/g, "") // eslint-disable-line no-control-regex
  const examples = /(\d+) example\(s\) found/.exec(output)?.[1] ?? "0"
  return { ok: result.status === 0, output, seconds, examples }
}

/** The public modules of a library that import a core module, by core module: who wraps it. */
const wrappers = () => {
  const found = new Map()
  for (const library of libraries.filter((l) => l.line !== "core")) {
    const name = manifestOf(library.folder).name
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(full)
        else if (entry.name.endsWith(".ts")) {
          // Imports in comments (a JSDoc example's) are no wrapping.
          const text = fs.readFileSync(full, "utf8").replace(/\/\*[\s\S]*?\*\//g, "")
          const relative = path.relative(path.join(root, library.folder, "src"), full)
          const module = relative.includes(path.sep) || relative === "index.ts" ? undefined : relative.slice(0, -3)
          for (const match of text.matchAll(/from "@community-api\/core\/(\w+)"/g)) {
            const users = found.get(match[1]) ?? new Map()
            const key = `${library.folder}\0${module ?? ""}`
            users.set(key, { library, name, module })
            found.set(match[1], users)
          }
        }
      }
    }
    walk(path.join(root, library.folder, "src"))
  }
  return found
}

/** GitHub's anchor of a heading. */
const anchor = (heading) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-")

/** A link from one page to a module's page, or its name alone when that page is not built. */
const linkTo = (from, built, library, module, text) => {
  const target = path.join(pageFolder(library.folder), `${module}.md`)
  return built.has(target) ? `[\`${text}\`](${path.relative(path.dirname(from), target)})` : `\`${text}\``
}

/** Docgen's page of a module, for docs/api: its header, where it sits among the lines, its links. */
const page = (text, context) => {
  const { library, module, built, wrappedBy } = context
  const name = manifestOf(library.folder).name
  const self = path.join(pageFolder(library.folder), `${module}.md`)
  // Docgen's front matter (for its Jekyll site) is not read on GitHub.
  const body = text.replace(/^\*\*\*\n[\s\S]*?\n---\n/, "")
  const headings = new Map()
  for (const match of body.matchAll(/^## (\S+)(.*)$/gm)) {
    if (!headings.has(match[1])) headings.set(match[1], anchor(`${match[1]}${match[2]}`))
  }
  const linked = body.replace(/\{@link ([^}\s]+)\}/g, (_, target) => {
    const to = headings.get(target)
    return to === undefined ? `\`${target}\`` : `[\`${target}\`](#${to})`
  })
  const lines = [
    `# ${module}`,
    "",
    `\`${name}/${module}\` · ${lineNames[library.line]} · [API reference](${
      path.relative(path.dirname(self), "README.md")
    })`,
    ""
  ]
  if (library.line === "core") {
    const users = [...(wrappedBy.get(module)?.values() ?? [])]
    const byLine = ["effect3", "effect4"].map((line) => {
      const of = users.filter((user) => user.library.line === line)
      const modules = of.filter((user) => user.module !== undefined)
        .map((user) => linkTo(self, built, user.library, user.module, `${user.name}/${user.module}`))
      const inside = [...new Set(of.filter((user) => user.module === undefined).map((user) => user.name))]
        .filter((packageName) => !of.some((user) => user.module !== undefined && user.name === packageName))
        .map((packageName) => `\`${packageName}\` (internally)`)
      const all = [...modules, ...inside]
      return `${lineNames[line]}: ${all.length === 0 ? "none" : all.join(", ")}`
    })
    lines.push(`**Wrapped by.** ${byLine.join(". ")}.`, "")
  } else {
    const other = library.line === "effect3" ? "effect4" : "effect3"
    const twin = libraries.find((l) => l.line === other && path.basename(l.folder) === path.basename(library.folder))
    const related = []
    if (twin !== undefined && fs.existsSync(path.join(root, twin.folder, "src", `${module}.ts`))) {
      related.push(
        `on ${lineNames[other]}: ${linkTo(self, built, twin, module, `${manifestOf(twin.folder).name}/${module}`)}`
      )
    }
    if (fs.existsSync(path.join(root, "packages", "core", "src", `${module}.ts`))) {
      related.push(`in the core: ${linkTo(self, built, libraries[0], module, `@community-api/core/${module}`)}`)
    }
    if (related.length > 0) lines.push(`**The same module** ${related.join("; ")}.`, "")
  }
  return `${lines.join("\n")}\n${linked.replace(/^\n+/, "")}`
}

const contents = "<h2 class=\"text-delta\">Table of contents</h2>"

/**
 * A module that only re-exports a generated one (the Effect 4 schema's resources, generated from the
 * Effect 3 line's): its page lists the generated module's exports, under its own overview.
 */
const withGenerated = (library, module, text) => {
  const source = fs.readFileSync(path.join(root, library.folder, "src", `${module}.ts`), "utf8")
  const only = /^export \* from "\.\/generated\/(\w+)\.js"$/m.exec(source)
  if (only === null || /^export (?!\* from "\.\/generated\/)/m.test(source)) return text
  const generated = path.join(root, library.folder, "docs", "modules", "generated", `${only[1]}.ts.md`)
  if (!fs.existsSync(generated)) return text
  const theirs = fs.readFileSync(generated, "utf8")
  return `${text.slice(0, text.indexOf(contents))}${theirs.slice(theirs.indexOf(contents))}`
}

/** The index: every module of every library in the reference, the two lines side by side. */
const index = (built, modulesOf) => {
  const out = [
    "# API reference",
    "",
    "One page per public module of the libraries, generated by [`@effect/docgen`](https://github.com/effect-ts/docgen)",
    "from the sources' JSDoc: every export with its signature, description and `@since`, grouped by",
    "`@category`. Every `@example` is type-checked against its library's own `effect` and run (the Effect 4",
    "line's on Node 22.19 or later), against the core alone or the in-process reference server. Regenerate",
    "with `pnpm docs` (`node scripts/docs.mjs`); `pnpm test` fails when these pages are stale or an example",
    "fails (`pnpm docs:check`). Concepts, the flow of a call and limits are in the prose docs:",
    "[client](../client.md), [schema](../schema.md), [server](../server.md), [architecture](../architecture.md).",
    ""
  ]
  for (const kind of ["schema", "client", "server"]) {
    const pair = ["effect3", "effect4"].map((line) => libraries.find((l) => l.folder === `lines/${line}/${kind}`))
    out.push(`## ${kind[0].toUpperCase()}${kind.slice(1)}`, "")
    out.push(`| Module | ${pair.map((l) => `${lineNames[l.line]}: \`${manifestOf(l.folder).name}\``).join(" | ")} |`)
    out.push("| --- | --- | --- |")
    const names = [...new Set(pair.flatMap((l) => modulesOf(l)))].sort()
    for (const name of names) {
      const cells = pair.map((l) => {
        const target = path.join(pageFolder(l.folder), `${name}.md`)
        if (built.has(target)) return `[${name}](${target})`
        return modulesOf(l).includes(name) ? "not built yet" : "—"
      })
      out.push(`| ${name} | ${cells.join(" | ")} |`)
    }
    const missing = pair.filter((l) => pending[l.folder] !== undefined)
    if (missing.length > 0) {
      out.push(
        "",
        `Not built yet: ${missing.map((l) => `\`${manifestOf(l.folder).name}\` (${pending[l.folder]})`).join("; ")}.`
      )
    }
    out.push("")
  }
  out.push(
    "## Core",
    "",
    "`@community-api/core`: what both lines share, with no Effect in it. Each page says which modules of the lines wrap it.",
    ""
  )
  const core = libraries[0]
  const coreModules = modulesOf(core)
  for (let i = 0; i < coreModules.length; i += 6) {
    out.push(
      coreModules.slice(i, i + 6).map((name) => `[${name}](core/${name}.md)`).join(" · ") +
        (i + 6 < coreModules.length ? " ·" : "")
    )
  }
  out.push("")
  return out.join("\n")
}

/** The public modules of a library, as docgen sees them: `src/*.ts` but `index.ts` and its exclusions. */
const modulesOf = (library) => {
  const config = JSON.parse(fs.readFileSync(path.join(root, library.folder, "docgen.json"), "utf8"))
  const excluded = (config.exclude ?? []).filter((glob) => !glob.includes("*")).map((file) =>
    path.basename(file, ".ts")
  )
  return fs.readdirSync(path.join(root, library.folder, "src"))
    .filter((file) => file.endsWith(".ts") && file !== "index.ts")
    .map((file) => file.slice(0, -3))
    .filter((name) => !excluded.includes(name))
    .sort()
}

const main = () => {
  const chosen = libraries.filter((library) => all || pending[library.folder] === undefined)
  const pages = new Map()
  let failed = false
  for (const library of chosen) {
    const result = docgen(library)
    const name = manifestOf(library.folder).name
    if (!result.ok) {
      failed = true
      process.stderr.write(`docs: ${name}: docgen failed (${result.seconds} s)\n${result.output}\n`)
      continue
    }
    process.stdout.write(`docs: ${name}: ${result.examples} example(s) compiled and run (${result.seconds} s)\n`)
    if (pending[library.folder] !== undefined) continue
    const generated = path.join(root, library.folder, "docs", "modules")
    for (const file of fs.readdirSync(generated).filter((f) => f.endsWith(".ts.md"))) {
      const module = file.slice(0, -".ts.md".length)
      if (module === "index") continue
      pages.set(path.join(pageFolder(library.folder), `${module}.md`), {
        library,
        module,
        text: withGenerated(library, module, fs.readFileSync(path.join(generated, file), "utf8"))
      })
    }
  }
  if (failed) process.exit(1)
  const built = new Set(pages.keys())
  const wrappedBy = wrappers()
  const files = new Map([["README.md", index(built, modulesOf)]])
  for (const [target, { library, module, text }] of pages) {
    files.set(target, page(text, { library, module, built, wrappedBy }))
  }
  if (check) {
    const stale = []
    const existing = new Set()
    const walk = (dir) => {
      if (!fs.existsSync(dir)) return
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(full)
        else if (entry.name.endsWith(".md")) existing.add(path.relative(reference, full))
      }
    }
    walk(reference)
    for (const [target, content] of files) {
      const full = path.join(reference, target)
      if (!fs.existsSync(full) || fs.readFileSync(full, "utf8") !== content) stale.push(target)
    }
    for (const target of existing) if (!files.has(target)) stale.push(`${target} (no longer generated)`)
    if (stale.length > 0) {
      process.stderr.write(`docs: docs/api is stale; run \`pnpm docs\`:\n${stale.map((s) => `  ${s}`).join("\n")}\n`)
      process.exit(1)
    }
    process.stdout.write(`docs: docs/api is current (${files.size} pages)\n`)
    return
  }
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), "docs-api-"))
  for (const [target, content] of files) {
    fs.mkdirSync(path.dirname(path.join(staging, target)), { recursive: true })
    fs.writeFileSync(path.join(staging, target), content)
  }
  // Only the generated pages are replaced: other files under docs/api (none yet) stay.
  for (const library of libraries) {
    fs.rmSync(path.join(reference, pageFolder(library.folder)), { recursive: true, force: true })
  }
  fs.cpSync(staging, reference, { recursive: true })
  fs.rmSync(staging, { recursive: true, force: true })
  process.stdout.write(`docs: wrote ${files.size} pages under docs/api\n`)
}

main()
