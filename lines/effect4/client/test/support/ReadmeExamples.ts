/**
 * The README's Effect 4 examples as written, in effects of this line: the plain work (taking them
 * out of README.md, the scratch project, the child processes) is the Effect 3 client's
 * `ReadmeText.ts`, shared by both lines' README tests; the scratch project's `node_modules` links
 * what this package resolves, so the examples build against the workspace's sources and effect 4.1.
 */
import { Duration, Effect } from "effect"
import * as Fs from "node:fs/promises"
import { createRequire } from "node:module"
import * as Path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as ReadmeText from "../../../../effect3/client/test/support/ReadmeText.js"

export { environment, expectedFor, logged, section } from "../../../../effect3/client/test/support/ReadmeText.js"

/** This client package's folder. */
export const clientDir = fileURLToPath(new URL("../..", import.meta.url))
const clientName = "@community-api/effect4-client"
const resolve = createRequire(Path.join(clientDir, "package.json")).resolve

/** The README's text, read afresh. */
export const readme = Effect.promise(ReadmeText.readReadme)

/** The one TypeScript block under `heading`, as written. */
export const example = (heading: string) => Effect.map(readme, (markdown) => ReadmeText.exampleIn(markdown, heading))

/** Where this package finds `name`: itself for its own name, else its dependency's real folder. */
const packageDir = async (name: string): Promise<string> => {
  if (name === clientName) return clientDir
  try {
    return await Fs.realpath(Path.join(clientDir, "node_modules", name))
  } catch {
    throw new Error(`the README imports ${name}, which ${clientName} does not depend on`)
  }
}

/** A scratch project with `files`, removed when the scope closes. */
export const scratch = (files: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.promise(() => ReadmeText.makeScratch({ clientDir, packageDir }, files)),
    (project) => Effect.promise(() => ReadmeText.removeScratch(project))
  )

/** The tools, as arguments of `node`: TypeScript files run through `tsx`'s loader in the child itself. */
export const tools = {
  tsc: [resolve("typescript/bin/tsc")],
  tsx: ["--import", pathToFileURL(resolve("tsx")).href],
  vitest: [Path.join(Path.dirname(resolve("vitest/package.json")), "vitest.mjs")],
  sandbox: [fileURLToPath(new URL("../../../server/bin/community-api-sandbox.js", import.meta.url))]
} as const

/**
 * Runs `node ...args` in `cwd` to its end. Killed (and failed) past `millis`, a bound on a hang only;
 * interrupting the effect kills it too.
 */
export const run = (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly millis: number }
): Effect.Effect<ReadmeText.Exit, Error> =>
  Effect.callback<ReadmeText.Exit, Error>((resume) => {
    const kill = ReadmeText.startNode(
      args,
      options,
      (result) => resume(result instanceof Error ? Effect.fail(result) : Effect.succeed(result))
    )
    return Effect.sync(kill)
  }).pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(options.millis),
      orElse: () => Effect.fail(new Error(`node ${args.join(" ")}: not done within ${options.millis} ms`))
    })
  )
