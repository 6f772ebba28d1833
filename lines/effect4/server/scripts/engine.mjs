/**
 * Bundles the reference server's engine (`@community-api/server`, on Effect 3) into
 * `engine/engine.js`, one ES module with the Effect 3 runtime inside: the Effect 4 line reaches it
 * through its web-standard handler alone, so a service on Effect 4 installs no second `effect`. The
 * sandbox's command (the same program as `pnpm start`) goes beside it as `engine/sandbox.js`, run by
 * this package's `community-api-sandbox` bin: a process of its own, out of the service's way.
 *
 * Both carry third-party code, whose licenses `engine/THIRD_PARTY_NOTICES.md` holds (the root's
 * `scripts/notices.mjs`; a license it does not allow fails the build). `engine/bundle.json` lists what
 * the two were made from (`inputs`, relative to this package's folder), for the test of the notices;
 * it is not published.
 *
 *   node scripts/engine.mjs
 */
import * as esbuild from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { writeNotices } from "../../../../scripts/notices.mjs"

// Explicit, so that esbuild's list of inputs is relative to this package wherever the script is run from.
const packageDir = fileURLToPath(new URL("..", import.meta.url))

const entry = fileURLToPath(new URL("./engine-entry.ts", import.meta.url))
const outfile = fileURLToPath(new URL("../engine/engine.js", import.meta.url))

const result = await esbuild.build({
  absWorkingDir: packageDir,
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // Not `minifySyntax`: it once dropped constants the core inlines (a ReferenceError at run time).
  minifyWhitespace: true,
  minifyIdentifiers: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning"
})
const bytes = Object.values(result.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
console.log(`engine: ${outfile}, ${Math.round(bytes / 1024)} KiB`)

const sandboxEntry = fileURLToPath(new URL("../../../effect3/server/src/bin.ts", import.meta.url))
const sandboxFile = fileURLToPath(new URL("../engine/sandbox.js", import.meta.url))
const sandbox = await esbuild.build({
  absWorkingDir: packageDir,
  entryPoints: [sandboxEntry],
  outfile: sandboxFile,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // Some dependencies are CommonJS and `require` Node's modules: an ES module has no `require`.
  banner: {
    js: "import { createRequire as __createRequire } from \"node:module\";\n" +
      "const require = __createRequire(import.meta.url);"
  },
  minifyWhitespace: true,
  minifyIdentifiers: true,
  keepNames: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning"
})
const sandboxBytes = Object.values(sandbox.metafile.outputs).reduce((sum, output) => sum + output.bytes, 0)
console.log(`sandbox: ${sandboxFile}, ${Math.round(sandboxBytes / 1024)} KiB`)

const inputsOf = (metafile) => Object.keys(metafile.inputs).filter((file) => !file.startsWith("<")).sort()
const record = {
  inputs: Object.fromEntries(
    [...new Set([...inputsOf(result.metafile), ...inputsOf(sandbox.metafile)])].sort().map((file) => [
      file,
      { bytes: (result.metafile.inputs[file] ?? sandbox.metafile.inputs[file]).bytes }
    ])
  ),
  outputs: { "engine.js": inputsOf(result.metafile), "sandbox.js": inputsOf(sandbox.metafile) }
}
const engineDir = path.dirname(outfile)
fs.writeFileSync(path.join(engineDir, "bundle.json"), `${JSON.stringify(record, null, 1)}\n`)
try {
  const packages = writeNotices(path.join(engineDir, "THIRD_PARTY_NOTICES.md"), {
    program: "`engine/engine.js` and `engine/sandbox.js`",
    inputs: Object.keys(record.inputs),
    workingDir: packageDir
  })
  console.log(`notices: ${path.join(engineDir, "THIRD_PARTY_NOTICES.md")}, ${packages.length} packages`)
} catch (error) {
  // Not shipped without its notices: the bundles go too, so that packing fails rather than ships them.
  for (const file of [outfile, sandboxFile, path.join(engineDir, "THIRD_PARTY_NOTICES.md")]) {
    fs.rmSync(file, { force: true })
  }
  console.error(`engine: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
}
