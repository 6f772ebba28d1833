/**
 * Packs the libraries into `packs/` at the root of the workspace, as the tarballs an npm user installs
 * while the packages are not on the public registry: the core (`@community-api/core`), the Effect 3
 * line (`@community-api/schema`, `client`, `server`) and the Effect 4 line (`@community-api/effect4-schema`,
 * `effect4-client`, `effect4-server`):
 *
 *   npx -y pnpm@10 install && npx -y pnpm@10 pack:all
 *
 * Each tarball is made by `pnpm pack`, which applies `publishConfig` (exports into `dist/`) and turns
 * `workspace:^` into a real range, and runs the package's `prepack` script, which compiles `dist/`.
 * The folder is emptied first, and each library's `dist/` is removed before its build, so the tarballs
 * hold exactly what the sources make now, as from a fresh clone: no file of a module since renamed or
 * deleted. Prints the path of each tarball, one a line, on standard output (pnpm's own output is shown
 * only when a pack fails), so `$(npx -y pnpm@10 -s pack:all)` is the list of tarballs.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const destination = path.join(root, "packs")
/** Each library's folder, relative to the root. */
const libraries = [
  "packages/core",
  "packages/schema",
  "packages/client",
  "packages/server",
  "effect4/schema",
  "effect4/client",
  "effect4/server"
]

/** Without the variables of the pnpm script running this one, so each `pnpm pack` sees its own package. */
const env = Object.fromEntries(
  Object.entries(process.env).filter(([key]) =>
    !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|pnpm_|PNPM_)/.test(key)
  )
)

/** `pnpm pack` in one library's folder; its output is kept and shown only if it fails. */
const pack = (library) =>
  new Promise((resolve, reject) => {
    const dir = path.join(root, library)
    fs.rmSync(path.join(dir, "dist"), { recursive: true, force: true })
    execFile(
      "npx",
      ["-y", "pnpm@10", "pack", "--pack-destination", destination],
      { cwd: dir, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve()
        else reject(new Error(`pnpm pack in ${library} failed (${error.message})\n${stdout}${stderr}`))
      }
    )
  })

try {
  fs.rmSync(destination, { recursive: true, force: true })
  fs.mkdirSync(destination)
  console.error(`pack: building and packing ${libraries.join(", ")}…`)
  // Two at a time at most: each runs its own TypeScript build, and these machines have two cores.
  // The two servers one after the other, beside the rest in the list's order (a schema before its client).
  const inOrder = (folders) => folders.reduce((done, folder) => done.then(() => pack(folder)), Promise.resolve())
  const isServer = (folder) => folder.endsWith("/server")
  await Promise.all([inOrder(libraries.filter((l) => !isServer(l))), inOrder(libraries.filter(isServer))])
  const tarballs = fs.readdirSync(destination).filter((name) => name.endsWith(".tgz")).sort()
  if (tarballs.length !== libraries.length) {
    throw new Error(`expected ${libraries.length} tarballs in ${destination}, found: ${tarballs.join(", ") || "none"}`)
  }
  for (const name of tarballs) console.log(path.join(destination, name))
} catch (error) {
  console.error(`pack: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
