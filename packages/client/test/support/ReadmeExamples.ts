/**
 * The README's examples as written: their text taken out of README.md by heading, saved in a scratch
 * project outside the workspace (as a user would save them in theirs), and typechecked with `tsc`, run
 * with `tsx` or with `vitest`, each a real child process. The scratch project's `node_modules` links
 * the packages the examples import to the copies the client package resolves, so the examples build
 * against the workspace's sources and its single copy of Effect.
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as Fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as Os from "node:os"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

/** The client package's folder. */
export const clientDir = fileURLToPath(new URL("../..", import.meta.url))
const rootDir = Path.resolve(clientDir, "../..")
const clientName = "@community-api/client"
const resolve = createRequire(Path.join(clientDir, "package.json")).resolve

/** The README's text, read afresh. */
export const readme = Effect.promise(() => Fs.readFile(Path.join(rootDir, "README.md"), "utf8"))

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

/** The one TypeScript block under `heading`, as written. */
export const example = (heading: string) =>
  Effect.map(readme, (markdown) => {
    const found = blocks(section(markdown, heading), "ts")
    if (found.length !== 1) throw new Error(`"${heading}" holds ${found.length} \`\`\`ts blocks, not one`)
    return found[0]!
  })

/** The packages a module imports (`effect`, `@effect/platform-node`), without Node's own modules. */
export const importedPackages = (source: string): Array<string> => {
  const specifiers = [...source.matchAll(/\b(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!)
  const packages = specifiers
    .filter((s) => !s.startsWith("node:") && !s.startsWith("."))
    .map((s) => s.split("/").slice(0, s.startsWith("@") ? 2 : 1).join("/"))
  return [...new Set(packages)].sort()
}

/** Where the client package finds `name`: itself for its own name, else its dependency's real folder. */
const packageDir = async (name: string): Promise<string> => {
  if (name === clientName) return clientDir
  try {
    return await Fs.realpath(Path.join(clientDir, "node_modules", name))
  } catch {
    throw new Error(`the README imports ${name}, which ${clientName} does not depend on`)
  }
}

/** A scratch project holding the examples. */
export interface Scratch {
  readonly dir: string
  readonly path: (file: string) => string
}

/**
 * A scratch project in the system's temporary folder with `files` (name to text), an ESM
 * `package.json`, a `tsconfig.json` that checks exactly those files with the client package's
 * settings, and a `node_modules` linking every package the files import. Removed when the scope
 * closes.
 */
export const scratch = (files: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(async (): Promise<Scratch> => {
      const dir = await Fs.mkdtemp(Path.join(Os.tmpdir(), "community-api-readme-"))
      const write = (file: string, text: string) => Fs.writeFile(Path.join(dir, file), text)
      await write("package.json", JSON.stringify({ name: "readme-examples", private: true, type: "module" }))
      await write(
        "tsconfig.json",
        JSON.stringify({
          extends: Path.join(clientDir, "tsconfig.json"),
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
        await Fs.symlink(await packageDir(name), link, "dir")
      }
      return { dir, path: (file) => Path.join(dir, file) }
    }),
    (project) => Effect.promise(() => Fs.rm(project.dir, { recursive: true, force: true }))
  )

/**
 * The workspace's tools, as arguments of `node`. TypeScript files run through `tsx`'s loader in the
 * child itself (its command would start a grandchild that a kill on a hang would leave behind).
 */
export const tools = {
  tsc: [resolve("typescript/bin/tsc")],
  tsx: ["--import", pathToFileURL(resolve("tsx")).href],
  vitest: [Path.join(Path.dirname(resolve("vitest/package.json")), "vitest.mjs")]
} as const

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
 * Runs `node ...args` in `cwd` to its end. Killed (and failed) past `millis`, a bound on a hang only;
 * interrupting the effect kills it too.
 */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly millis: number }
): Effect.Effect<Exit, Error> =>
  Effect.async<Exit, Error>((resume) => {
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
    child.once("error", (error) => resume(Effect.fail(error)))
    child.once("close", (code) =>
      resume(Effect.succeed({ code, stdout: stdout.replace(ansi, ""), stderr: stderr.replace(ansi, "") })))
    return Effect.sync(() => {
      child.kill("SIGKILL")
    })
  }).pipe(
    Effect.timeoutFail({
      duration: options.millis,
      onTimeout: () =>
        new Error(`node ${args.join(" ")}: not done within ${options.millis} ms`)
    })
  )

/** The log lines of a `NodeRuntime.runMain` program at `level` (`INFO`, `WARN`, …), their messages only. */
export const logged = (output: string, level: string): Array<string> =>
  output.split("\n").flatMap((line) => {
    const match = /^\[[\d:.]+\] (\w+) \(#\d+\):(?: (.*))?$/.exec(line)
    return match !== null && match[1] === level ? [match[2] ?? ""] : []
  })
