/**
 * The packages this repository publishes: every package of the workspace (the folders that
 * `pnpm-workspace.yaml` names) whose manifest is not `private`. Read from the files each time, so that
 * `pack:all`, the release rehearsal and the manifests' checks share one list and a new package joins
 * all three by being added to the workspace without `private`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

/** The root of the workspace. */
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")

/** The folders of `pnpm-workspace.yaml`'s `packages` list, relative to `from`: `dir/*` or `dir`. */
export const workspaceFolders = (from = root) => {
  const text = fs.readFileSync(path.join(from, "pnpm-workspace.yaml"), "utf8")
  const list = /^packages:\n((?:[ \t]+-[^\n]*\n?)+)/m.exec(text)
  if (list === null) throw new Error("pnpm-workspace.yaml: no packages list")
  const globs = list[1].split("\n").map((line) => line.replace(/^\s*-\s*/, "").replace(/["']/g, "").trim())
    .filter((glob) => glob !== "")
  return globs.flatMap((glob) => {
    if (!glob.endsWith("/*")) return [glob]
    const parent = glob.slice(0, -2)
    const entries = fs.readdirSync(path.join(from, parent), { withFileTypes: true })
    return entries.filter((entry) => entry.isDirectory()).map((entry) => `${parent}/${entry.name}`).sort()
  }).filter((folder) => fs.existsSync(path.join(from, folder, "package.json")))
}

/** Each published package: its folder relative to `from`, its name, version and manifest. */
export const publishedPackages = (from = root) =>
  workspaceFolders(from).flatMap((folder) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(from, folder, "package.json"), "utf8"))
    return manifest.private === true ? [] : [{ folder, name: manifest.name, version: manifest.version, manifest }]
  })
