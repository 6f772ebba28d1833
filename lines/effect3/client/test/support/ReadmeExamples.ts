/**
 * The README's examples as written ({@link ReadmeText}), in effects of this line: taken out of
 * README.md by heading, saved in a scratch project outside the workspace, and typechecked with `tsc`,
 * run with `tsx` or with `vitest`, each a real child process. The scratch project's `node_modules`
 * links the packages the examples import to the copies the client package resolves, so the examples
 * build against the workspace's sources and its single copy of Effect.
 */
import { Effect } from "effect"
import * as Fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as ReadmeText from "./ReadmeText.js"

export { environment, expectedFor, importedPackages, logged, section } from "./ReadmeText.js"
export type { Exit, Scratch } from "./ReadmeText.js"

/** The client package's folder. */
export const clientDir = fileURLToPath(new URL("../..", import.meta.url))
const clientName = "@community-api/client"
const resolve = createRequire(Path.join(clientDir, "package.json")).resolve

/** The README's text, read afresh. */
export const readme = Effect.promise(ReadmeText.readReadme)

/** The one TypeScript block under `heading`, as written. */
export const example = (heading: string) => Effect.map(readme, (markdown) => ReadmeText.exampleIn(markdown, heading))

/** Where the client package finds `name`: itself for its own name, else its dependency's real folder. */
const packageDir = async (name: string): Promise<string> => {
  if (name === clientName) return clientDir
  try {
    return await Fs.realpath(Path.join(clientDir, "node_modules", name))
  } catch {
    throw new Error(`the README imports ${name}, which ${clientName} does not depend on`)
  }
}

/** A scratch project with `files` ({@link ReadmeText.makeScratch}), removed when the scope closes. */
export const scratch = (files: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(() => ReadmeText.makeScratch({ clientDir, packageDir }, files)),
    (project) => Effect.promise(() => ReadmeText.removeScratch(project))
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

/**
 * Runs `node ...args` in `cwd` to its end. Killed (and failed) past `millis`, a bound on a hang only;
 * interrupting the effect kills it too.
 */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly millis: number }
): Effect.Effect<ReadmeText.Exit, Error> =>
  Effect.async<ReadmeText.Exit, Error>((resume) => {
    const kill = ReadmeText.startNode(
      args,
      options,
      (result) => resume(result instanceof Error ? Effect.fail(result) : Effect.succeed(result))
    )
    return Effect.sync(kill)
  }).pipe(
    Effect.timeoutFail({
      duration: options.millis,
      onTimeout: () => new Error(`node ${args.join(" ")}: not done within ${options.millis} ms`)
    })
  )
