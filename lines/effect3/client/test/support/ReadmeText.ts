/**
 * The README's examples as plain data and plain processes, with no Effect: both lines' README tests
 * (this package's `Readme.test.ts` and the Effect 4 client's) take their examples out of README.md by
 * heading, save them in a scratch project outside the workspace (as a user would save them in
 * theirs) and run `tsc`, `tsx` or `vitest` on them as child processes. Each line wraps these in its
 * own effects (`ReadmeExamples.ts` beside each).
 */
import { spawn } from "node:child_process"
import * as Fs from "node:fs/promises"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"

/** The repository's root. */
export const rootDir = fileURLToPath(new URL("../../../../..", import.meta.url))

/** The README's text, read afresh. */
export const readReadme = (): Promise<string> => Fs.readFile(Path.join(rootDir, "README.md"), "utf8")

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

/** The one TypeScript block under `heading` of `markdown`, as written. */
export const exampleIn = (markdown: string, heading: string): string => {
  const found = blocks(section(markdown, heading), "ts")
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

/** A scratch project holding the examples. */
export interface Scratch {
  readonly dir: string
  readonly path: (file: string) => string
}

/** Where a line's client package is, and how it finds the packages the examples import. */
export interface Home {
  /** The client package's folder: the scratch project's `tsconfig.json` extends its own. */
  readonly clientDir: string
  /** The real folder of a package the examples import, as the client package resolves it. */
  readonly packageDir: (name: string) => Promise<string>
}

/**
 * A scratch project in the system's temporary folder with `files` (name to text), an ESM
 * `package.json`, a `tsconfig.json` that checks exactly those files with the client package's
 * settings, and a `node_modules` linking every package the files import.
 */
export const makeScratch = async (home: Home, files: Readonly<Record<string, string>>): Promise<Scratch> => {
  const dir = await Fs.mkdtemp(Path.join(Os.tmpdir(), "community-api-readme-"))
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
    await Fs.symlink(await home.packageDir(name), link, "dir")
  }
  return { dir, path: (file) => Path.join(dir, file) }
}

/** Removes a scratch project. */
export const removeScratch = (project: Scratch): Promise<void> => Fs.rm(project.dir, { recursive: true, force: true })

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
 * Starts `node ...args` (this process's Node) in `cwd`; `done` is called once with how it ended, or with
 * the error that kept it from starting. Returns what kills it.
 */
export const startNode = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv },
  done: (result: Exit | Error) => void
): () => void => {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] })
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  child.once("error", (error) => done(error))
  child.once("close", (code) => done({ code, stdout: stdout.replace(ansi, ""), stderr: stderr.replace(ansi, "") }))
  return () => {
    child.kill("SIGKILL")
  }
}

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
