/**
 * The published packages' manifests as a registry shows them, and the release set-up around them.
 * The published packages are the workspace's packages (the folders `pnpm-workspace.yaml` names) that are
 * not `private`, as `scripts/packages.mjs` reads them for `pack:all` and the release rehearsal: each names the repository as the root's manifest defines it (the one place its address is
 * written), with its own folder, a homepage and bugs address on the same repository, keywords, its
 * license and engines, and public access; each ships a README.md, a LICENSE and a CHANGELOG.md whose
 * newest entry is the manifest's version. Changesets' configuration (`.changeset/config.json`) moves
 * exactly these packages together, as one fixed group, and never versions a private one.
 */
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { isDeepStrictEqual } from "node:util"
import { describe, expect, it } from "vitest"
import { publishedPackages, workspaceFolders } from "../../../scripts/packages.mjs"
import { root } from "./support/sources.js"

interface Repository {
  readonly type?: string
  readonly url?: string
  readonly directory?: string
}

interface Manifest {
  readonly name: string
  readonly version?: string
  readonly private?: boolean
  readonly license?: string
  readonly keywords?: ReadonlyArray<unknown>
  readonly homepage?: string
  readonly bugs?: { readonly url?: string }
  readonly repository?: Repository
  readonly engines?: { readonly node?: string }
  readonly publishConfig?: { readonly access?: string }
  readonly files?: ReadonlyArray<string>
  readonly scripts?: Record<string, string>
}

interface ChangesetsConfig {
  readonly access?: string
  readonly baseBranch?: string
  readonly fixed?: ReadonlyArray<ReadonlyArray<string>>
  readonly linked?: ReadonlyArray<ReadonlyArray<string>>
  readonly privatePackages?: { readonly version?: boolean; readonly tag?: boolean } | false
}

const readJson = <A>(file: string): A => JSON.parse(readFileSync(path.join(root, file), "utf8")) as A

interface Package {
  readonly folder: string
  readonly manifest: Manifest
}

const rootManifest = readJson<Manifest>("package.json")
/** The published packages, the same list `pack:all` and the release rehearsal read. */
const published: ReadonlyArray<Package> = publishedPackages().map(({ folder, manifest }) => ({
  folder,
  manifest: manifest as unknown as Manifest
}))

/** The repository's web address, from the root's `git+https://….git` URL. */
const web = (rootManifest.repository?.url ?? "").replace(/^git\+/, "").replace(/\.git$/, "")

/** What a published package's manifest and folder lack or get wrong, one line each. */
const problemsOf = ({ folder, manifest }: Package): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const check = (what: string, actual: unknown, expected: unknown) => {
    if (!isDeepStrictEqual(actual, expected)) {
      problems.push(`${what} is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`)
    }
  }
  check("repository", manifest.repository, { type: "git", url: rootManifest.repository?.url, directory: folder })
  check("homepage", manifest.homepage, `${web}/tree/main/${folder}#readme`)
  check("bugs", manifest.bugs, { url: `${web}/issues` })
  check("license", manifest.license, "MIT")
  check("publishConfig.access", manifest.publishConfig?.access, "public")
  const keywords = manifest.keywords ?? []
  if (keywords.length === 0) problems.push("no keywords")
  for (const keyword of keywords) {
    if (typeof keyword !== "string" || !/^[a-z0-9][a-z0-9-]*$/.test(keyword)) {
      problems.push(`keyword ${JSON.stringify(keyword)} is not a lower-case word`)
    }
  }
  if (new Set(keywords).size !== keywords.length) problems.push("a keyword repeated")
  if (typeof manifest.engines?.node !== "string") problems.push("no engines.node")
  for (const file of ["README.md", "LICENSE", "CHANGELOG.md"]) {
    if (!existsSync(path.join(root, folder, file))) problems.push(`no ${file}`)
  }
  // npm and pnpm always pack README.md and LICENSE, but a CHANGELOG.md only when `files` names it.
  if (!(manifest.files ?? []).includes("CHANGELOG.md")) problems.push("files does not name CHANGELOG.md")
  const changelog = path.join(root, folder, "CHANGELOG.md")
  if (existsSync(changelog)) {
    const head = readFileSync(changelog, "utf8").split("\n").slice(0, 3).join("\n")
    check("CHANGELOG.md's head", head, `# ${manifest.name}\n\n## ${manifest.version}`)
  }
  return problems
}

describe("the published packages' manifests", () => {
  it("the published packages are the workspace's packages that are not private", () => {
    expect(workspaceFolders()).toEqual(
      expect.arrayContaining(["packages/core", "apps/cli", "lines/effect4/client", "tests/package"])
    )
    const names = published.map(({ manifest }) => manifest.name)
    expect(names).toContain("@community-api/core")
    expect(names).not.toContain("@community-api/package-test")
    expect(new Set(names).size).toBe(names.length)
    for (const { folder, manifest } of published) {
      expect(manifest.name, folder).toMatch(/^@community-api\//)
    }
  })

  it("the root's manifest defines the repository's address, once, and the release scripts", () => {
    expect(rootManifest.private).toBe(true)
    expect(rootManifest.repository).toEqual({ type: "git", url: expect.stringMatching(/^git\+https:\/\/.+\.git$/) })
    expect(rootManifest.scripts).toMatchObject({
      changeset: "changeset",
      "version-packages": "changeset version",
      release: "changeset publish"
    })
  })

  for (const pkg of published) {
    it(`${pkg.manifest.name} (${pkg.folder}): repository, homepage, bugs, keywords, license, engines, access, README.md, LICENSE, CHANGELOG.md`, () => {
      expect(problemsOf(pkg)).toEqual([])
    })
  }

  it("the published packages carry one version", () => {
    expect(new Set(published.map(({ manifest }) => manifest.version)).size).toBe(1)
  })

  it("the check reports what a manifest lacks", () => {
    const bare = problemsOf({ folder: "packages/core", manifest: { name: "@community-api/core", version: "0.1.0" } })
    expect(bare).toEqual(expect.arrayContaining([
      expect.stringMatching(/^repository is undefined/),
      expect.stringMatching(/^homepage is undefined/),
      expect.stringMatching(/^publishConfig\.access is undefined/),
      "no keywords",
      "files does not name CHANGELOG.md"
    ]))
  })
})

describe("the changesets configuration", () => {
  const config = readJson<ChangesetsConfig>(".changeset/config.json")

  it("moves exactly the published packages together, as one fixed group", () => {
    expect(config.fixed).toHaveLength(1)
    expect([...(config.fixed?.[0] ?? [])].sort()).toEqual(published.map(({ manifest }) => manifest.name).sort())
    expect(config.linked ?? []).toEqual([])
  })

  it("publishes with public access from main and never versions or tags a private package", () => {
    expect(config.access).toBe("public")
    expect(config.baseBranch).toBe("main")
    expect(config.privatePackages).toEqual({ version: false, tag: false })
  })
})
