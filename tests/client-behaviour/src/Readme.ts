/**
 * The README's examples as plain data and plain processes, with no Effect, for both lines' README
 * suites: each example is taken out of README.md by its heading (the line's, `Driver.ReadmeHome`),
 * saved in a scratch project outside the workspace (as a user would save it in theirs) whose
 * `node_modules` links the packages it imports to the copies the line's client package resolves, and
 * typechecked with `tsc`, run with `tsx` or with `vitest`, each a real child process.
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import type { ReadmeHome } from "./Driver.js"

/** The repository's root. */
export const rootDir = fileURLToPath(new URL("../../..", import.meta.url))

/** The README's text, read afresh. */
export const readme = (): Promise<string> => Fs.readFile(Path.join(rootDir, "README.md"), "utf8")

const fence = /^(`{3,})(\S*)\s*$/

/**
 * The text of the section under `heading` (a whole line, e.g. `### In a service`) up to the next
 * heading of any level; a `#` line inside a fenced block (a shell comment) is no heading.
 */
export const section = (markdown: string, heading: string): string => {
  const lines = markdown.split("\n")
  const start = lines.indexOf(heading)
  if (start === -1) throw new Error(`README.md has no heading "${heading}"`)
  let open: string | undefined
  let end = lines.length
  for (let i = start + 1; i < lines.length; i++) {
    const marker = fence.exec(lines[i]!)?.[1]
    if (marker !== undefined) open = open === undefined ? marker : marker.startsWith(open) ? undefined : open
    else if (open === undefined && /^#{1,6} /.test(lines[i]!)) {
      end = i
      break
    }
  }
  return lines.slice(start + 1, end).join("\n")
}

/** The contents of the fenced blocks of `language` (the word after the opening fence) in `markdown`. */
export const blocks = (markdown: string, language: string): Array<string> => {
  const found: Array<string> = []
  let open: { readonly marker: string; readonly language: string; readonly lines: Array<string> } | undefined
  for (const line of markdown.split("\n")) {
    const match = fence.exec(line)
    if (open === undefined) {
      if (match !== null) open = { marker: match[1]!, language: match[2]!, lines: [] }
    } else if (match !== null && match[2] === "" && match[1]!.startsWith(open.marker)) {
      if (open.language === language) found.push(open.lines.join("\n") + "\n")
      open = undefined
    } else {
      open.lines.push(line)
    }
  }
  return found
}

/** The one TypeScript block under `heading` of the README, as written. */
export const example = async (heading: string): Promise<string> => {
  const found = blocks(section(await readme(), heading), "ts")
  if (found.length !== 1) throw new Error(`"${heading}" holds ${found.length} \`\`\`ts blocks, not one`)
  return found[0]!
}

/** The packages a module imports (`effect`, `@effect/platform-node`), without Node's own modules. */
export const importedPackages = (source: string): Array<string> => {
  const specifiers = [...source.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!)
  const packages = specifiers
    .filter((s) => !s.startsWith("node:") && !s.startsWith("."))
    .map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"))
  return [...new Set(packages)].sort()
}

/** Where the line's client package finds `name`: itself for its own name, else its dependency's real folder. */
const packageDir = async (home: ReadmeHome, name: string): Promise<string> => {
  if (name === home.clientName) return home.clientDir
  try {
    return await Fs.realpath(Path.join(home.clientDir, "node_modules", name))
  } catch {
    throw new Error(`the README imports ${name}, which ${home.clientName} does not depend on`)
  }
}

/** A scratch project holding the examples. */
export interface Scratch {
  readonly dir: string
  readonly path: (file: string) => string
}

/**
 * Runs `f` in a scratch project in the system's temporary folder with `files` (name to text), an ESM
 * `package.json`, a `tsconfig.json` that checks exactly those files with the line's client package's
 * settings, and a `node_modules` linking every package the files import; removed after.
 */
export const withScratch = async <A>(
  home: ReadmeHome,
  files: Readonly<Record<string, string>>,
  f: (project: Scratch) => Promise<A>
): Promise<A> => {
  const dir = await Fs.mkdtemp(Path.join(Os.tmpdir(), "community-api-readme-"))
  try {
    const write = (file: string, text: string) => Fs.writeFile(Path.join(dir, file), text)
    await write("package.json", JSON.stringify({ name: "readme-examples", private: true, type: "module" }))
    await write(
      "tsconfig.json",
      JSON.stringify({
        extends: Path.join(home.clientDir, "tsconfig.json"),
        // `@types/node` is the workspace root's.
        compilerOptions: { typeRoots: [Path.join(rootDir, "node_modules", "@types")] },
        include: [],
        files: Object.keys(files)
      })
    )
    for (const [file, text] of Object.entries(files)) await write(file, text)
    for (const name of importedPackages(Object.values(files).join("\n"))) {
      const link = Path.join(dir, "node_modules", name)
      await Fs.mkdir(Path.dirname(link), { recursive: true })
      await Fs.symlink(await packageDir(home, name), link, "dir")
    }
    return await f({ dir, path: (file) => Path.join(dir, file) })
  } finally {
    await Fs.rm(dir, { recursive: true, force: true })
  }
}

/**
 * The tools the line's client package resolves, as arguments of `node`. TypeScript files run through
 * `tsx`'s loader in the child itself (its command would start a grandchild that a kill on a hang
 * would leave behind).
 */
export const tools = (home: ReadmeHome) => {
  const resolve = createRequire(Path.join(home.clientDir, "package.json")).resolve
  return {
    tsc: [resolve("typescript/bin/tsc")],
    tsx: ["--import", pathToFileURL(resolve("tsx")).href],
    vitest: [Path.join(Path.dirname(resolve("vitest/package.json")), "vitest.mjs")]
  } as const
}

/** How a child process ended, with what it wrote (colours taken out). */
export interface Exit {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g

/**
 * The environment of a child: this one's without the variables of the test runner (a nested `vitest`
 * would take them as its own) or of a client configuration, plus `extra`.
 */
export const environment = (extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith("VITEST") && !key.startsWith("COMMUNITY_"))
  ),
  ...extra
})

/**
 * Runs `node ...args` (this process's Node) in `cwd` to its end. Killed, and rejected, past `millis`:
 * a bound on a hang only.
 */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly millis: number }
): Promise<Exit> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    const bound = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`node ${args.join(" ")}: not done within ${options.millis} ms`))
    }, options.millis)
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.once("error", (error) => {
      clearTimeout(bound)
      reject(error)
    })
    child.once("close", (code) => {
      clearTimeout(bound)
      resolve({ code, stdout: stdout.replace(ansi, ""), stderr: stderr.replace(ansi, "") })
    })
  })

/** The log lines of a `NodeRuntime.runMain` program at `level` (`INFO`, `WARN`, …), their messages only. */
export const logged = (output: string, level: string): Array<string> =>
  output.split("\n").flatMap((line) => {
    const match = /^\[[\d:.]+\] (\w+) \(#\d+\):(?: (.*))?$/.exec(line)
    return match !== null && match[1] === level ? [match[2] ?? ""] : []
  })

/**
 * What the service example must do to `community` of `bots` (the demo data's): enable each of its
 * disabled bots that is not archived, except those that cannot be enabled (error 6), and say so.
 */
export const expectedFor = (
  bots: ReadonlyArray<
    {
      readonly id: string
      readonly group_id: number
      readonly channel: string
      readonly archived: number
      readonly active: number
      readonly can_enable: boolean
    }
  >,
  community: { readonly group_id: number; readonly channel: string }
) => {
  const disabled = bots.filter((bot) =>
    bot.group_id === community.group_id && bot.channel === community.channel && bot.archived === 0 &&
    bot.active === 0
  )
  const enabled = disabled.filter((bot) => bot.can_enable).map((bot) => bot.id)
  const failed = disabled.length - enabled.length
  return { enabled, failed, summary: `enabled ${enabled.length} bots, ${failed} could not be enabled` }
}

/** Generous bounds on a hang of a child on a busy machine; nothing is asserted on its speed. */
export const bounds = { tsc: 240_000, run: 180_000 } as const

/** `tsc` over these examples in a scratch project: how it ended. */
export const typecheck = (home: ReadmeHome, files: Readonly<Record<string, string>>): Promise<Exit> =>
  withScratch(
    home,
    files,
    (project) =>
      run([...tools(home).tsc, "-p", "tsconfig.json"], { cwd: project.dir, env: environment(), millis: bounds.tsc })
  )
