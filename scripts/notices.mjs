/**
 * The third-party notices of a bundle. A bundle carries the code of the packages it was made from, and
 * their licenses (MIT's "shall be included in all copies", BSD's, Apache's NOTICE) ask for their texts
 * to travel with every copy: `THIRD_PARTY_NOTICES.md` beside the bundle holds, for each third-party
 * package whose files esbuild read, its name, version, license and license files, word for word.
 *
 * Used by `bundle.mjs` (the command line, the MCP server, the sandbox) and by
 * `lines/effect4/server/scripts/engine.mjs` (the Effect 4 line's engine), which write the file beside the
 * bundle, and by `tests/package/test/Notices.test.ts`, which checks a bundle's notices against the
 * bundle's own list of inputs. A package whose license is not in `allowedLicenses`, or that ships no
 * license text, stops the bundling: it is a decision to make by hand (see `thirdPartyPackages`).
 */
import * as fs from "node:fs"
import * as path from "node:path"

/**
 * The licenses a bundled package may be under, as SPDX ids: permissive ones only, whose conditions a
 * notice file meets. No copyleft (GPL, LGPL, MPL, EPL…): it would put conditions on our bundle as a
 * whole, or on how it is shipped, that a notice does not meet. Adding an id is a decision: say why.
 */
export const allowedLicenses = Object.freeze([
  "0BSD",
  // Its NOTICE file, when a package has one, must travel too (section 4(d)): it does, as a license file.
  "Apache-2.0",
  "BlueOak-1.0.0",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "ISC",
  "MIT"
])

/** The files of a package folder that hold its license text or notices, in any case and with any extension. */
const licenseFile = /^(?:licen[cs]e|copying|notice)(?:[-_.][\w.-]*)?$/i
/** …but not code or data that happens to be named so (`license.js`, `license.json`). */
const notText = /\.(?:[cm]?[jt]s|json|map|node)$/i

/** What one package's `license` or legacy `licenses` field says, as an SPDX expression, or undefined. */
const licenseOf = (manifest) => {
  const { license, licenses } = manifest
  if (typeof license === "string" && license.trim() !== "") return license.trim()
  // The old object form, `{ "type": "MIT", "url": … }`.
  if (license !== null && typeof license === "object" && typeof license.type === "string") return license.type
  // The legacy `licenses` array, each entry a name or `{ type }`: all of them, as alternatives.
  if (Array.isArray(licenses) && licenses.length > 0) {
    const types = licenses.map((entry) => typeof entry === "string" ? entry : entry?.type)
    if (types.every((type) => typeof type === "string" && type !== "")) {
      return types.length === 1 ? types[0] : `(${types.join(" OR ")})`
    }
  }
  return undefined
}

/**
 * Whether an SPDX expression is allowed: `A OR B` when one of them is (we choose it), `A AND B` when
 * each is. A mix of both, or a `WITH` exception, is judged as if every id had to be allowed: the safe
 * reading, and none of our dependencies needs more.
 */
export const licenseAllowed = (expression) => {
  const text = expression.replace(/[()]/g, " ").trim()
  const ors = text.split(/\s+OR\s+/)
  const ands = text.split(/\s+AND\s+/)
  const allowed = (id) => allowedLicenses.includes(id.trim())
  if (ors.length > 1 && ands.length === 1 && !/\s+WITH\s+/.test(text)) return ors.some(allowed)
  return text.split(/\s+(?:OR|AND|WITH)\s+/).every(allowed)
}

/** The license files of a package folder, sorted by name, each with its text (line ends made `\n`). */
const licenseTexts = (dir) =>
  fs.readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && licenseFile.test(entry.name) && !notText.test(entry.name))
    .map((entry) => ({
      file: entry.name,
      text: fs.readFileSync(path.join(dir, entry.name), "utf8").replace(/\r\n?/g, "\n").trimEnd()
    }))
    .filter(({ text }) => text.trim() !== "")
    .sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : 0)

/**
 * The package folder an input file belongs to, or undefined for our own code. Our own is what is not
 * under a `node_modules` folder (esbuild follows pnpm's links of workspace packages to their real
 * folders). Under one, it is the nearest folder upward with a package.json that has a `name`: pnpm puts
 * a package in `node_modules/.pnpm/<name>@<version>/node_modules/<name>/`, and packages carry nested
 * package.json files that only set a module type (`dist/esm/package.json`: `{"type":"module"}`).
 */
const packageDirOf = (file, readManifest) => {
  const parts = file.split(path.sep)
  const last = parts.lastIndexOf("node_modules")
  if (last === -1) return undefined
  const boundary = parts.slice(0, last + 1).join(path.sep)
  for (let dir = path.dirname(file); dir !== boundary && dir.startsWith(boundary); dir = path.dirname(dir)) {
    if (readManifest(dir)?.name !== undefined) return dir
  }
  throw new Error(`${file}: no package.json with a name above it in ${boundary}`)
}

/**
 * The third-party packages a bundle was made from, sorted by name then version: `inputs` are the
 * bundle's input files (esbuild's metafile `inputs`), relative to `workingDir` or absolute. Our own
 * packages (`@community-api/*`, or not under `node_modules`) are left out.
 *
 * Throws, naming every offender at once, when a package's license is missing or not allowed, or when
 * it ships no license text. There is deliberately no fallback to a standard text for its SPDX id: the
 * text of an MIT or BSD license is its copyright line, which only the package's own file states
 * truly (an `author` field is not a copyright holder), and every package we bundle today has one.
 * A package without it is a case to look at, and then to pin, replace or ask upstream about.
 */
export const thirdPartyPackages = (inputs, workingDir) => {
  const manifests = new Map()
  const readManifest = (dir) => {
    if (!manifests.has(dir)) {
      const file = path.join(dir, "package.json")
      manifests.set(dir, fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined)
    }
    return manifests.get(dir)
  }
  const byId = new Map()
  for (const input of inputs) {
    const dir = packageDirOf(path.resolve(workingDir, input), readManifest)
    if (dir === undefined) continue
    const manifest = readManifest(dir)
    if (manifest.name.startsWith("@community-api/")) continue
    const id = `${manifest.name}@${manifest.version}`
    // The same version in two folders (pnpm's variants by peer dependency) is one section.
    if (!byId.has(id)) {
      byId.set(id, {
        name: manifest.name,
        version: String(manifest.version),
        license: licenseOf(manifest),
        dir,
        texts: licenseTexts(dir)
      })
    }
  }
  const packages = [...byId.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.version < b.version ? -1 : a.version > b.version ? 1 : 0
  )
  const problems = packages.flatMap((pkg) => [
    ...(pkg.license === undefined
      ? [`${pkg.name}@${pkg.version} states no license in its package.json`]
      : licenseAllowed(pkg.license)
      ? []
      : [`${pkg.name}@${pkg.version} is under ${pkg.license}, which is not among the allowed licenses`]),
    ...(pkg.texts.length === 0 ? [`${pkg.name}@${pkg.version} ships no license text (LICENSE, COPYING, NOTICE…)`] : [])
  ])
  if (problems.length > 0) {
    throw new Error(
      `third-party notices: ${problems.join("; ")}. Allowed: ${allowedLicenses.join(", ")} (scripts/notices.mjs)`
    )
  }
  return packages
}

/** A code fence longer than any run of backticks in `text`, so that no license text can close it early. */
const fenceFor = (text) => "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map(([run]) => run.length + 1)))

/**
 * The notices file: a header saying which program it covers (`program`, e.g. "`build/community-api.js`
 * and its chunks", in the package `own`) and under what our own code is (`own.license`), then a
 * section per package: `## name@version`, `License: …`, and each license file in a fenced block.
 */
export const renderNotices = ({ program, own, packages }) => {
  const sections = packages.map((pkg) =>
    [
      `## ${pkg.name}@${pkg.version}`,
      "",
      `License: ${pkg.license}`,
      "",
      ...pkg.texts.flatMap(({ file, text }) => {
        const fence = fenceFor(text)
        return [`### ${file}`, "", `${fence}text`, text, fence, ""]
      })
    ].join("\n")
  )
  return [
    "# Third-party notices",
    "",
    `Covers ${program}, in ${own.name} ${own.version}.`,
    "",
    `They contain code of the ${packages.length} third-party packages below, each under its own license, ` +
    "whose text follows word for word. Our own code (the `@community-api` packages) is under " +
    `${own.license}: see the package's LICENSE file.`,
    "",
    ...sections
  ].join("\n")
}

/**
 * Writes the notices of a bundle to `file`: its third-party packages from its `inputs` (relative to
 * `workingDir`), checked as `thirdPartyPackages` does, under the header of `renderNotices`. The package
 * whose program it is (`own`) is read from `workingDir`'s package.json. Returns the packages.
 */
export const writeNotices = (file, { program, inputs, workingDir }) => {
  const packages = thirdPartyPackages(inputs, workingDir)
  const manifest = JSON.parse(fs.readFileSync(path.join(workingDir, "package.json"), "utf8"))
  const own = { name: manifest.name, version: manifest.version, license: manifest.license }
  fs.writeFileSync(file, renderNotices({ program, own, packages }))
  return packages
}
