/**
 * Packs every published package into `packs/` at the root of the workspace, as the tarballs a clone's
 * user installs without a registry: the core (`@community-api/core`), the Effect 3 line
 * (`@community-api/schema`, `client`, `server`), the Effect 4 line (`@community-api/effect4-schema`,
 * `effect4-client`, `effect4-server`), the command line (`@community-api/cli`) and the MCP server
 * (`@community-api/mcp`), nine in all (`packages.mjs` says which: every package not `private`):
 *
 *   npx -y pnpm@10 install && npx -y pnpm@10 pack:all
 *
 * Each tarball is made by `pnpm pack`, which applies `publishConfig` (exports into `dist/`) and turns
 * `workspace:^` into a real range, and runs the package's `prepack` script, which compiles `dist/` (a
 * library) or bundles `build/` (the two programs). The folder is emptied first, and each package's
 * `dist/` and `build/` are removed before its build, so the tarballs
 * hold exactly what the sources make now, as from a fresh clone: no file of a module since renamed or
 * deleted. Prints the path of each tarball, one a line, on standard output (pnpm's own output is shown
 * only when a pack fails), so `$(npx -y pnpm@10 -s pack:all)` is the list of tarballs.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { publishedPackages, root } from "./packages.mjs"

const destination = path.join(root, "packs")
/** Each published package's folder, relative to the root. */
const folders = publishedPackages().map((pkg) => pkg.folder)

/** Without the variables of the pnpm script running this one, so each `pnpm pack` sees its own package. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) =>
    !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|pnpm_|PNPM_)/.test(key)
  )
)

/** `pnpm pack` in one package's folder; its output is kept and shown only if it fails. */
const pack = (folder) =>
  new Promise((resolve, reject) => {
    const dir = path.join(root, folder)
    for (const made of ["dist", "build"]) fs.rmSync(path.join(dir, made), { recursive: true, force: true })
    execFile(
      "npx",
      ["-y", "pnpm@10", "pack", "--pack-destination", destination],
      { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve()
        else reject(new Error(`pnpm pack in ${folder} failed (${error.message})\n${stdout}${stderr}`))
      }
    )
  })

try {
  fs.rmSync(destination, { recursive: true, force: true })
  fs.mkdirSync(destination)
  console.error(`pack: building and packing ${folders.join(", ")}…`)
  // Two at a time at most: each runs its own TypeScript build or bundle, and these machines have two
  // cores. The servers and the programs (the heaviest builds) one after the other, beside the rest.
  const inOrder = (list) => list.reduce((done, folder) => done.then(() => pack(folder)), Promise.resolve())
  const heavy = (folder) => folder.endsWith("/server") || folder.startsWith("apps/")
  await Promise.all([inOrder(folders.filter((f) => !heavy(f))), inOrder(folders.filter(heavy))])
  const tarballs = fs.readdirSync(destination).filter((name) => name.endsWith(".tgz")).sort()
  if (tarballs.length !== folders.length) {
    throw new Error(`expected ${folders.length} tarballs in ${destination}, found: ${tarballs.join(", ") || "none"}`)
  }
  for (const name of tarballs) console.log(path.join(destination, name))
} catch (error) {
  console.error(`pack: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
