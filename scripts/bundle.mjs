/**
 * Compiles a package's executable (`src/bin.ts`) into plain JavaScript in its `build/` folder, named
 * after the `bin` of its package.json (`build/community-api.js`, `build/community-api-sandbox.js`):
 * one minified ES module with every dependency inside, plus a chunk for each module the program
 * imports dynamically, so that what a command does not use (the command line's embedded sandbox) is
 * neither read nor compiled. A start then costs neither TypeScript nor resolving a thousand modules.
 *
 *   node scripts/bundle.mjs [DIR…]             bundle the packages in DIR… (default: this folder)
 *   node scripts/bundle.mjs --if-stale [DIR…]  only those whose bundle is missing or was made from
 *                                              files that have changed since (a few milliseconds each
 *                                              otherwise, and silent)
 *
 * `pnpm install` (`prepare`), `pnpm start` and `pnpm cli` run it with `--if-stale`; turbo's `bundle`
 * task, which the tests of the command line and the server depend on, runs it plainly. It is plain
 * JavaScript run by Node itself, so that the check costs no TypeScript either. What a bundle was made
 * from is esbuild's own list, with this script: `build/bundle.json` holds it (`inputs`), and which
 * source files went into each output file (`outputs`), for tests of what a command loads. Beside it,
 * `build/THIRD_PARTY_NOTICES.md` holds the licenses of the third-party packages inside (`notices.mjs`);
 * a package under a license not allowed there, or without a license text, fails the bundling.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { writeNotices } from "./notices.mjs"

const self = fileURLToPath(import.meta.url)
const noticesScript = fileURLToPath(new URL("./notices.mjs", import.meta.url))
const args = process.argv.slice(2)
const ifStale = args.includes("--if-stale")
const dirs = args.filter((arg) => !arg.startsWith("--"))

/** What `--if-stale` compares: size and modification time, or the content when only the time differs. */
const stamp = (file) => {
  const stat = fs.statSync(file, { throwIfNoEntry: false })
  return stat === undefined ? undefined : { size: stat.size, mtimeMs: stat.mtimeMs }
}

const digest = (file) => createHash("sha1").update(fs.readFileSync(file)).digest("base64")

/** The package in `dir`: where its bundle goes and under which name. */
const packageAt = (dir) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"))
  const names = Object.keys(manifest.bin ?? {})
  if (names.length !== 1) throw new Error(`${manifest.name} needs exactly one bin in package.json, not ${names.length}`)
  return { dir, name: names[0], outdir: path.join(dir, "build") }
}

/**
 * Whether the bundle exists and every file it was made from is as it was then. A file whose time
 * changed but not its content (a fresh checkout, a bundle restored by turbo) has its time brought up to
 * date in the list, so that the next check is cheap again.
 */
const fresh = ({ dir, name, outdir }) => {
  const listFile = path.join(outdir, "bundle.json")
  let recorded
  try {
    recorded = JSON.parse(fs.readFileSync(listFile, "utf8"))
  } catch {
    return false
  }
  if (stamp(path.join(outdir, `${name}.js`)) === undefined) return false
  if (stamp(path.join(outdir, "THIRD_PARTY_NOTICES.md")) === undefined) return false
  let touched = false
  for (const [file, entry] of Object.entries(recorded.inputs)) {
    const absolute = path.resolve(dir, file)
    const now = stamp(absolute)
    if (now === undefined || now.size !== entry.size) return false
    if (now.mtimeMs === entry.mtimeMs) continue
    if (digest(absolute) !== entry.sha1) return false
    entry.mtimeMs = now.mtimeMs
    touched = true
  }
  if (touched) fs.writeFileSync(listFile, `${JSON.stringify(recorded, null, 1)}\n`)
  return true
}

const bundle = async ({ dir, name, outdir }) => {
  // Loaded only to build: the check must stay cheap.
  const esbuild = await import("esbuild")
  const started = Date.now()
  // Built beside and swapped in, so that a command started meanwhile finds the old bundle or the new.
  const staging = `${outdir}.${process.pid}`
  fs.rmSync(staging, { recursive: true, force: true })
  const result = await esbuild.build({
    absWorkingDir: dir,
    entryPoints: [{ in: "src/bin.ts", out: name }],
    outdir: staging,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    chunkNames: "chunks/[name]-[hash]",
    // Some dependencies are CommonJS and `require` Node's modules: an ES module has no `require`.
    banner: {
      js: "import { createRequire as __createRequire } from \"node:module\";\n" +
        "const require = __createRequire(import.meta.url);"
    },
    // Less text for Node to read and keep: a fifth less memory for a short command. Names stay, for
    // whatever prints a class or a function; the source map leads back to the sources.
    // Not `minifySyntax`: with it, esbuild 0.28 inlines a module's numeric constants and drops their
    // declarations while a namespace object re-exported through `export *` (the schema's `Limits`,
    // re-exporting the core's) still reads them: `ReferenceError: rateWindowMillis is not defined`.
    minifyWhitespace: true,
    minifyIdentifiers: true,
    keepNames: true,
    sourcemap: "linked",
    sourcesContent: false,
    // The licenses travel in THIRD_PARTY_NOTICES.md instead, whole, once per package.
    legalComments: "none",
    metafile: true,
    logLevel: "warning"
  })
  const inputs = [
    ...Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("<")),
    path.relative(dir, self),
    // What decides the notices is part of what the bundle was made from: a change to it makes it stale.
    path.relative(dir, noticesScript)
  ].sort()
  const record = {
    inputs: Object.fromEntries(inputs.map((file) => {
      const absolute = path.resolve(dir, file)
      return [file, { ...stamp(absolute), sha1: digest(absolute) }]
    })),
    outputs: Object.fromEntries(
      Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js")).map(([file, output]) => [
        path.relative(staging, path.resolve(dir, file)),
        Object.keys(output.inputs).sort()
      ])
    )
  }
  fs.writeFileSync(path.join(staging, "bundle.json"), `${JSON.stringify(record, null, 1)}\n`)
  // In the staging folder too, so that no bundle is ever in place without its notices. A package the
  // notices refuse stops here, and the previous bundle stays.
  const chunks = Object.keys(record.outputs).length - 1
  try {
    writeNotices(path.join(staging, "THIRD_PARTY_NOTICES.md"), {
      program: `\`build/${name}.js\`${chunks > 0 ? " and its chunks" : ""}`,
      inputs,
      workingDir: dir
    })
  } catch (error) {
    fs.rmSync(staging, { recursive: true, force: true })
    throw error
  }
  const previous = `${outdir}.old.${process.pid}`
  if (fs.existsSync(outdir)) fs.renameSync(outdir, previous)
  fs.renameSync(staging, outdir)
  fs.rmSync(previous, { recursive: true, force: true })
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"))
  const kib = Math.round(outputs.reduce((sum, [, output]) => sum + output.bytes, 0) / 1024)
  // On stderr: `pnpm cli … --json` keeps standard output for the command's own.
  console.error(
    `bundle: ${path.relative(process.cwd(), path.join(outdir, `${name}.js`))} and ${outputs.length - 1} chunk(s), ` +
      `${kib} KiB from ${inputs.length} files, in ${Date.now() - started} ms`
  )
}

try {
  const packages = (dirs.length === 0 ? ["."] : dirs).map((dir) => packageAt(path.resolve(dir)))
  await Promise.all(packages.filter((pkg) => !(ifStale && fresh(pkg))).map(bundle))
} catch (error) {
  // esbuild has already printed what it could not compile.
  console.error(`bundle: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
