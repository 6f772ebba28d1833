/**
 * The system programs the tests need (Debian's `redis-server`, Debian's `chromium`): found on the PATH or
 * in the usual folders, installed with `apt-get` where that is possible (as root, as on CI and the
 * project's machines, `apt-get update` first if the install fails), and otherwise named in one line.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

/** The first executable `name` on the PATH or in the usual system folders. */
export const which = (name) => {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/bin", "/usr/sbin", "/usr/local/bin", "/bin"]
  for (const dir of dirs) {
    if (dir === "") continue
    const file = path.join(dir, name)
    try {
      fs.accessSync(file, fs.constants.X_OK)
      return file
    } catch {
      // Not here.
    }
  }
  return undefined
}

/** Installs Debian's package with apt-get (its output goes to standard error). */
const aptInstall = (aptGet, debianPackage) => {
  const options = { stdio: ["ignore", 2, 2], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } }
  const install = () => execFileSync(aptGet, ["install", "-y", "--no-install-recommends", debianPackage], options)
  try {
    install()
  } catch {
    // A fresh machine's package lists may be missing or old.
    execFileSync(aptGet, ["update"], options)
    install()
  }
}

/**
 * The path of the first of `binaries` found; when none is, Debian's `debianPackage` is installed first
 * if it can be. Throws an error whose message is one line naming the package otherwise.
 */
export const ensureProgram = (binaries, debianPackage) => {
  const find = () => binaries.map(which).find((file) => file !== undefined)
  const missing = `${binaries[0]} is missing: install Debian's ${debianPackage} package ` +
    `(as root: apt-get install -y ${debianPackage})`
  const found = find()
  if (found !== undefined) return found
  const aptGet = which("apt-get")
  if (aptGet === undefined || process.getuid?.() !== 0) throw new Error(missing)
  process.stderr.write(`${binaries[0]} is missing: installing Debian's ${debianPackage} package with apt-get\n`)
  try {
    aptInstall(aptGet, debianPackage)
  } catch {
    throw new Error(missing)
  }
  const installed = find()
  if (installed === undefined) throw new Error(missing)
  return installed
}

/** Runs `ensure` when the calling file is the command run (`node scripts/x.mjs`): prints the path or the line. */
export const runAsCommand = (url, ensure) => {
  if (process.argv[1] === undefined || path.resolve(process.argv[1]) !== new URL(url).pathname) return
  try {
    process.stdout.write(`${ensure()}\n`)
  } catch (error) {
    process.stderr.write(`${error.message}\n`)
    process.exit(1)
  }
}
