/**
 * Every bundle we ship carries the notices of the third-party code inside it: for each of the four
 * bundles, the third-party packages of its own list of inputs (derived by `scripts/notices.mjs`, as
 * the bundling did) each have a section in its THIRD_PARTY_NOTICES.md, under an allowed license, with
 * their license text. The file is read as a reader would, by its headings, not rebuilt, so a notices
 * file that has gone stale or lost a section fails here.
 *
 * The bundles are made before this test by turbo (`@community-api/package-test#test` depends on the
 * four `bundle` tasks). A small tree in a temp folder checks the detection itself, and that it refuses
 * what it must, so that the checks above cannot pass for want of ever failing.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { allowedLicenses, licenseAllowed, thirdPartyPackages } from "../../../scripts/notices.mjs"

const root = path.resolve(import.meta.dirname, "../../..")

/** Each bundle's folder, with its list of inputs (`bundle.json`), relative to the package folder above it. */
const bundles = [
  "apps/cli/build",
  "apps/mcp/build",
  "lines/effect3/server/build",
  "lines/effect4/server/engine"
] as const

/** One `## name@version` section of a notices file: its `License:` line and its fenced license texts. */
interface Section {
  readonly license: string | undefined
  readonly texts: ReadonlyArray<string>
}

/** The sections of a notices file by `name@version`; a heading inside a fenced text is text, not a heading. */
const sectionsOf = (markdown: string): ReadonlyMap<string, Section> => {
  const sections = new Map<string, { license: string | undefined; texts: Array<string> }>()
  let current: { license: string | undefined; texts: Array<string> } | undefined
  let fence: string | undefined
  let text: Array<string> = []
  for (const line of markdown.split("\n")) {
    if (fence !== undefined) {
      if (line === fence) {
        current?.texts.push(text.join("\n"))
        fence = undefined
      } else {
        text.push(line)
      }
      continue
    }
    const opening = /^(`{3,})/.exec(line)
    const heading = /^## (\S+)$/.exec(line)
    const license = /^License: (.+)$/.exec(line)
    if (opening !== null) {
      fence = opening[1]
      text = []
    } else if (heading !== null) {
      current = { license: undefined, texts: [] }
      sections.set(heading[1], current)
    } else if (license !== null && current !== undefined) {
      current.license = license[1]
    }
  }
  return sections
}

describe("the notices of each bundle we ship", () => {
  for (const bundle of bundles) {
    it(`${bundle}: every third-party package inside has a section, under an allowed license, with its license text`, () => {
      const folder = path.join(root, bundle)
      const list = path.join(folder, "bundle.json")
      expect(existsSync(list), `${list} is missing: bundle first (npx -y pnpm@10 turbo run bundle)`).toBe(true)
      const inputs = Object.keys((JSON.parse(readFileSync(list, "utf8")) as { inputs: object }).inputs)
      const packages = thirdPartyPackages(inputs, path.dirname(folder))
      const sections = sectionsOf(readFileSync(path.join(folder, "THIRD_PARTY_NOTICES.md"), "utf8"))

      // Every bundle here carries Effect at least: an empty list would mean the inputs were misread.
      expect(packages.map((pkg) => pkg.name)).toContain("effect")
      expect([...sections.keys()].sort()).toEqual(packages.map((pkg) => `${pkg.name}@${pkg.version}`).sort())
      for (const [id, section] of sections) {
        expect(section.license, id).toBeDefined()
        expect(licenseAllowed(section.license!), `${id} under ${section.license}`).toBe(true)
        expect(section.texts.filter((text) => text.trim() !== "").length, `${id}'s license text`).toBeGreaterThan(0)
      }
      for (const pkg of packages) {
        const section = sections.get(`${pkg.name}@${pkg.version}`)!
        expect(section.license).toBe(pkg.license)
        expect(section.texts).toEqual(pkg.texts.map(({ text }) => text))
      }
    })
  }
})

describe("finding a bundle's third-party packages and their licenses", () => {
  const tree = mkdtempSync(path.join(tmpdir(), "notices-"))
  afterAll(() => rmSync(tree, { recursive: true, force: true }))

  /** Writes files under the temp tree, objects as JSON. */
  const write = (files: Record<string, string | object>): void => {
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(tree, file)), { recursive: true })
      writeFileSync(path.join(tree, file), typeof content === "string" ? content : JSON.stringify(content))
    }
  }
  /**
   * A package as pnpm lays it out, with an entry module under a nested, nameless package.json;
   * returns that module's path, relative to `app`.
   */
  const pnpmPackage = (name: string, version: string, extra: Record<string, string | object>): string => {
    const dir = `node_modules/.pnpm/${name.replace("/", "+")}@${version}/node_modules/${name}`
    write({
      [`${dir}/dist/esm/package.json`]: { type: "module" },
      [`${dir}/dist/esm/index.js`]: "export {}\n",
      ...Object.fromEntries(Object.entries(extra).map(([file, content]) => [`${dir}/${file}`, content]))
    })
    return `../${dir}/dist/esm/index.js`
  }
  write({ "app/package.json": { name: "@community-api/app", version: "1.0.0" }, "app/src/bin.ts": "" })
  const app = path.join(tree, "app")
  const good = pnpmPackage("good", "1.2.3", {
    "package.json": { name: "good", version: "1.2.3", license: "MIT" },
    "LICENSE": "MIT License\r\n\r\nCopyright (c) Good\r\n"
  })
  const legacy = pnpmPackage("@scope/legacy", "0.1.0", {
    "package.json": { name: "@scope/legacy", version: "0.1.0", licenses: [{ type: "ISC" }] },
    "license.md": "ISC License\n\nCopyright (c) Legacy\n",
    "NOTICE.txt": "Legacy includes no other work.\n"
  })
  const ours = pnpmPackage("@community-api/core", "1.0.0", {
    "package.json": { name: "@community-api/core", version: "1.0.0", license: "MIT" }
  })
  const textless = pnpmPackage("textless", "2.0.0", {
    "package.json": { name: "textless", version: "2.0.0", license: "MIT" },
    "README.md": "MIT licensed, somewhere.\n"
  })
  const copyleft = pnpmPackage("copyleft", "3.0.0", {
    "package.json": { name: "copyleft", version: "3.0.0", license: "GPL-3.0-only" },
    "COPYING": "GNU GENERAL PUBLIC LICENSE\n"
  })

  it("finds each input's package past nameless package.json files, reads license and texts, and leaves our own code out", () => {
    const packages = thirdPartyPackages(["src/bin.ts", good, legacy, ours, good], app)
    expect(packages.map(({ name, version, license, texts }) => ({ name, version, license, texts }))).toEqual([
      {
        name: "@scope/legacy",
        version: "0.1.0",
        license: "ISC",
        texts: [
          { file: "NOTICE.txt", text: "Legacy includes no other work." },
          { file: "license.md", text: "ISC License\n\nCopyright (c) Legacy" }
        ]
      },
      {
        name: "good",
        version: "1.2.3",
        license: "MIT",
        texts: [{ file: "LICENSE", text: "MIT License\n\nCopyright (c) Good" }]
      }
    ])
  })

  it("refuses a package that ships no license text", () => {
    expect(() => thirdPartyPackages([good, textless], app)).toThrow(/textless@2\.0\.0 ships no license text/)
  })

  it("refuses a package under a license outside the allowed list, naming it", () => {
    expect(() => thirdPartyPackages([copyleft, good], app)).toThrow(/copyleft@3\.0\.0 is under GPL-3\.0-only/)
  })

  it("reads an SPDX expression: one allowed alternative of an OR suffices, every part of an AND must be allowed", () => {
    expect(licenseAllowed("(MIT OR GPL-3.0-only)")).toBe(true)
    expect(licenseAllowed("MIT AND GPL-3.0-only")).toBe(false)
    expect(licenseAllowed("(MIT AND Apache-2.0)")).toBe(true)
    expect(licenseAllowed("SEE LICENSE IN LICENSE.txt")).toBe(false)
  })

  it("allows no copyleft license", () => {
    expect(allowedLicenses.filter((id) => /GPL|MPL|EPL|CDDL|EUPL|OSL|CC-BY-SA/i.test(id))).toEqual([])
  })
})
