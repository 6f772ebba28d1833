/**
 * The TypeScript sources of the workspace as the checks of this folder read them: the files on disk,
 * parsed by the TypeScript compiler without building or type-checking anything.
 */
import { readdirSync } from "node:fs"
import * as path from "node:path"

/** The root of the workspace. */
export const root = path.resolve(import.meta.dirname, "../../../..")

/**
 * Every `.ts` file under `dir` (declaration files aside), as absolute paths in a stable order;
 * `skip` leaves out a folder and everything under it.
 */
export const typeScriptFiles = (
  dir: string,
  skip: (folder: string) => boolean = () => false
): ReadonlyArray<string> => {
  const files: Array<string> = []
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name)
      if (entry.isDirectory()) {
        if (!skip(full)) walk(full)
      } else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) {
        files.push(full)
      }
    }
  }
  walk(dir)
  return files.sort()
}

/** A path relative to the workspace's root, with `/` whatever the platform, as a report names a file. */
export const relative = (file: string): string => path.relative(root, file).split(path.sep).join("/")
