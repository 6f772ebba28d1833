/**
 * Bundles the reference server's engine (`@community-api/server`, on Effect 3) into
 * `engine/engine.js`, one ES module with the Effect 3 runtime inside: the Effect 4 line reaches it
 * through its web-standard handler alone, so a service on Effect 4 installs no second `effect`. The
 * sandbox's command (the same program as `pnpm start`) goes beside it as `engine/sandbox.js`, run by
 * this package's `community-api-sandbox` bin: a process of its own, out of the service's way.
 *
 *   node scripts/engine.mjs
 */
import * as esbuild from "esbuild"
import { fileURLToPath } from "node:url"

const entry = fileURLToPath(new URL("./engine-entry.ts", import.meta.url))
const outfile = fileURLToPath(new URL("../engine/engine.js", import.meta.url))

const result = await esbuild.build({
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

const sandboxEntry = fileURLToPath(new URL("../../../packages/server/src/bin.ts", import.meta.url))
const sandboxFile = fileURLToPath(new URL("../engine/sandbox.js", import.meta.url))
const sandbox = await esbuild.build({
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
