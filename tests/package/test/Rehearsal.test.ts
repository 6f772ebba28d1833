/**
 * A release, rehearsed against a real registry, and what a user then gets by name.
 *
 * Verdaccio on a loopback port (fresh storage, a throwaway user; our scope never proxied, see
 * `support/Registry.ts`). In a copy of the repository as a fresh clone has it (the files git tracks or
 * would track, nothing built; only `node_modules` linked in place of the clone's `pnpm install`):
 * a changeset is added, `pnpm version-packages` moves every package to the next version and writes
 * its changelog, and `pnpm release` (Changesets' publish, whose `prepack`s build everything) publishes
 * each package to the registry. Then, outside the repository, with an npm cache of their own: two
 * scratch projects install the Effect 3 and the Effect 4 line by name, on Node 22 and Node 26, and run
 * the README's examples as written, the sandbox's bin, `npx @community-api/cli users me`, and
 * `npx -y @community-api/mcp` started by the official MCP SDK's stdio transport from the README's
 * assistant configuration. publint reads every published tarball and Are The Types Wrong every
 * library's (its `esm-only` profile), both with zero findings.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { publint } from "publint"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeOf } from "../../../scripts/node-lines.mjs"
import { type PublishedPackage, publishedPackages } from "../../../scripts/packages.mjs"
import * as Readme from "./support/Readme.js"
import { ourScope, type Registry, startRegistry } from "./support/Registry.js"
import { root } from "./support/sources.js"

const fixture3 = path.resolve(import.meta.dirname, "fixture")
const fixture4 = path.resolve(import.meta.dirname, "fixture-effect4")
/** What Are The Types Wrong's `esm-only` profile does not hold against a package (its own list). */
const esmOnlyIgnores = ["node10", "node16-cjs"]
const attwBin = path.resolve(import.meta.dirname, "../node_modules/@arethetypeswrong/cli/dist/index.js")

/** What the rehearsal publishes: every package of the workspace that is not private. */
const published: ReadonlyArray<PublishedPackage> = publishedPackages()
/** The programs (bundles with a bin and no library exports); the rest are libraries. */
const programs = new Set(["@community-api/cli", "@community-api/mcp"])
const libraries = published.filter((pkg) => !programs.has(pkg.name))

/** The two lines' projects, as the README's Install section has the user install them. */
const lines = {
  effect3: {
    fixture: fixture3,
    dependencies: [
      "@community-api/client",
      "@community-api/schema",
      "effect@^3.22.4",
      "@effect/platform@^0.97.2",
      "@effect/platform-node@^0.108.2"
    ],
    devDependencies: [
      "@community-api/server",
      "vitest@^3.2.4",
      "@effect/vitest@^0.30.0",
      "tsx@^4.20.0",
      "typescript@^5.9",
      "@types/node@^22",
      "@types/ws@^8"
    ],
    examples: {
      "contract.ts": "## The contract",
      "bots.ts": "### In a service",
      "example.test.ts": "### In tests, with the reference server in-process",
      "limits.ts": "### Retries and limits"
    }
  },
  effect4: {
    fixture: fixture4,
    dependencies: [
      "@community-api/effect4-client",
      "@community-api/effect4-schema",
      "@community-api/core",
      "effect@~4.1.0",
      "@effect/platform-node@~4.1.0"
    ],
    devDependencies: [
      "@community-api/effect4-server",
      "vitest@^5.1.1",
      "@effect/vitest@~4.0.5",
      "tsx@^4.20.0",
      "typescript@^5.9",
      "@types/node@^22"
    ],
    examples: {
      "bots.ts": "### In a service, on Effect 4",
      "example.test.ts": "### In tests, on Effect 4, with the reference server in-process"
    }
  }
} as const
type Line = keyof typeof lines

/** Without the variables of the pnpm script running this test, so each child sees only its own project. */
const baseEnv: NodeJS.ProcessEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) =>
    !/^(npm_|pnpm_|PNPM_|COMMUNITY_API_)/i.test(key) && key !== "NODE_OPTIONS" && !key.startsWith("VITEST")
  )
)

interface Output {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end; fails with its output unless `allowFailure`. */
const run = (
  command: string,
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv; readonly allowFailure?: boolean }
): Promise<Output> =>
  new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd: options.cwd, env: options.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : 1
        if (code === 0 || options.allowFailure === true) resolve({ code, stdout, stderr })
        else {reject(
            new Error(`${command} ${args.join(" ")} in ${options.cwd} failed (${error?.message})\n${stdout}\n${stderr}`)
          )}
      }
    )
  })

/**
 * A copy of the repository as a fresh clone has it: the files git tracks or would track (the working
 * tree, uncommitted changes included), nothing built, then `pnpm install` from the lockfile (from the
 * machine's pnpm store where it can), so that `workspace:` ranges resolve to the copy's own versions.
 */
const cloneRepository = async (clone: string): Promise<void> => {
  const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8"
  }).split("\0").filter((file) => file !== "")
  for (const file of files) {
    await mkdir(path.dirname(path.join(clone, file)), { recursive: true })
    await copyFile(path.join(root, file), path.join(clone, file))
  }
  await run("npx", ["-y", "pnpm@10", "install", "--frozen-lockfile", "--prefer-offline"], {
    cwd: clone,
    env: { ...baseEnv, CI: "true" }
  })
}

/** An environment whose `node` (for npm, npx and the bins) is the given line's. */
const onNode = (node: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...env,
  PATH: `${path.dirname(node)}${path.delimiter}${env.PATH ?? ""}`
})

/** Starts a `community-api-sandbox` bin through `npx` in `dir`; its base URL once it serves. */
const startSandbox = async (dir: string, env: NodeJS.ProcessEnv) => {
  // A group of its own: `npx` runs the bin as its child, and the whole group is stopped after.
  const child = spawn("npx", ["community-api-sandbox", "--port", "0", "--quiet"], { cwd: dir, env, detached: true })
  let banner = ""
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A bound on a hung start only; nothing is asserted on its speed.
    const guard = setTimeout(() => reject(new Error(`the sandbox did not start:\n${banner}`)), 120_000)
    child.stdout.on("data", (chunk) => {
      banner += chunk
      const match = /(http:\/\/127\.0\.0\.1:\d+)\/external-api\/v2/.exec(banner)
      if (match !== null) {
        clearTimeout(guard)
        resolve(match[1]!)
      }
    })
    child.stderr.on("data", (chunk) => (banner += chunk))
    child.on("exit", (code) => {
      clearTimeout(guard)
      reject(new Error(`the sandbox exited with ${code}:\n${banner}`))
    })
  })
  return { origin: baseUrl, child }
}

/**
 * `npm install` from the rehearsal's registry, once more if it fails: the registry fetches third-party
 * packages through its uplink, and answers a request the uplink failed (a reset connection, a busy
 * upstream) with a 404 that npm does not try again. Our own packages never go through the uplink.
 */
const installFromRegistry = async (
  args: ReadonlyArray<string>,
  options: { readonly cwd: string; readonly env: NodeJS.ProcessEnv }
): Promise<void> => {
  const first = await run("npm", args, { ...options, allowFailure: true })
  if (first.code === 0) return
  process.stderr.write(`rehearsal: npm ${args.join(" ")} failed once, trying again:\n${first.stderr}\n`)
  await run("npm", args, options)
}

/** The base URL of a world of its own on the sandbox at `origin` (a tenant), so runs do not meet. */
const tenantUrl = (origin: string, tenant: string) => `${origin}/_tenants/${tenant}/external-api/v2`

let scratch = ""
let registry: Registry | undefined
let version = ""
const sandboxes: Array<ChildProcess> = []
const origins = new Map<Line, string>()
const projects = new Map<Line, string>()
/** The tarballs as the registry serves them, by package name. */
const tarballs = new Map<string, string>()
let userEnv: NodeJS.ProcessEnv = {}
const node22 = nodeOf("22")
const node26 = nodeOf("26")
const nodes = [["22", node22], ["26", node26]] as const

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "community-api-rehearsal-"))
  registry = await startRegistry(path.join(scratch, "registry"))
  try {
    await rehearse(registry)
  } catch (error) {
    // What the registry said (its uplink's failures among it) goes with the failure.
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nverdaccio:\n${registry.log()}`)
  }
}, 1_500_000)

/** The release, then the user's side: everything the tests below read. */
const rehearse = async (registry: Registry): Promise<void> => {
  // The release, from a copy of the repository.
  const clone = path.join(scratch, "clone")
  await cloneRepository(clone)
  await writeFile(path.join(clone, ".npmrc"), `registry=${registry.url}\n${registry.authLine}\n`)
  await writeFile(
    path.join(clone, ".changeset", "release-rehearsal.md"),
    `---\n"@community-api/core": patch\n---\n\nRehearsal of a release: nothing changed but the version.\n`
  )
  // The maintainer's pnpm, as `npx -y pnpm@10` gets it from the machine's registry: the rehearsal's
  // registry serves the release, not the tools that make it. On `PATH`, for Changesets' `pnpm publish`.
  const pnpm = (await run("npx", ["-y", "-p", "pnpm@10", "-c", "command -v pnpm"], { cwd: scratch, env: baseEnv }))
    .stdout.trim()
  const releaseEnv = {
    ...baseEnv,
    npm_config_registry: registry.url,
    PATH: `${path.dirname(pnpm)}${path.delimiter}${baseEnv.PATH ?? ""}`
  }
  await run(pnpm, ["version-packages"], { cwd: clone, env: releaseEnv })
  version = JSON.parse(await readFile(path.join(clone, "packages/core/package.json"), "utf8")).version
  await run(pnpm, ["release", "--no-git-tag"], { cwd: clone, env: releaseEnv })

  // The user's side: nothing of the repository, an npm cache and configuration of their own.
  const userconfig = path.join(scratch, "npmrc")
  await writeFile(userconfig, `registry=${registry.url}\n`)
  userEnv = {
    ...baseEnv,
    npm_config_userconfig: userconfig,
    npm_config_registry: registry.url,
    npm_config_cache: path.join(scratch, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_audit: "false",
    npm_config_fund: "false"
  }
  const install = async (line: Line, node: string) => {
    const spec = lines[line]
    const dir = path.join(scratch, `project-${line}`)
    await mkdir(dir)
    await writeFile(
      path.join(dir, "package.json"),
      `${JSON.stringify({ name: `scratch-${line}`, version: "1.0.0", private: true, type: "module" }, null, 2)}\n`
    )
    for (const file of ["main.mjs", "consumer.ts"]) await copyFile(path.join(spec.fixture, file), path.join(dir, file))
    const tsconfig = JSON.parse(await readFile(path.join(spec.fixture, "tsconfig.json"), "utf8"))
    for (const [file, heading] of Object.entries(spec.examples)) {
      await writeFile(path.join(dir, file), Readme.block(heading, "ts"))
    }
    tsconfig.files = ["consumer.ts", ...Object.keys(spec.examples)]
    await writeFile(path.join(dir, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`)
    const env = onNode(node, userEnv)
    await installFromRegistry(["install", ...spec.dependencies], { cwd: dir, env })
    await installFromRegistry(["install", "--save-dev", ...spec.devDependencies], { cwd: dir, env })
    projects.set(line, dir)
  }
  const packAll = async () => {
    const dir = path.join(scratch, "tarballs")
    await mkdir(dir)
    for (const pkg of published) {
      const { stdout } = await run("npm", ["pack", "--json", `${pkg.name}@${version}`], { cwd: dir, env: userEnv })
      const [packed] = JSON.parse(stdout) as Array<{ filename: string }>
      tarballs.set(pkg.name, path.join(dir, packed!.filename))
    }
  }
  // The Effect 3 line installed with Node 22's npm, the Effect 4 line with Node 26's.
  await Promise.all([install("effect3", node22), install("effect4", node26), packAll()])
  for (const line of ["effect3", "effect4"] as const) {
    const { child, origin } = await startSandbox(projects.get(line)!, onNode(node26, userEnv))
    sandboxes.push(child)
    origins.set(line, origin)
  }
}

afterAll(async () => {
  for (const child of sandboxes) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL")
    } catch {
      // Already gone.
    }
  }
  registry?.stop()
  if (scratch !== "") await rm(scratch, { recursive: true, force: true })
})

/** A published manifest, as the registry serves it for the rehearsed version. */
const packument = async (name: string) => {
  const response = await fetch(`${registry!.url}${name.replace("/", "%2f")}`)
  expect(response.status, name).toBe(200)
  return await response.json() as {
    readonly "dist-tags": Record<string, string>
    readonly versions: Record<string, Record<string, unknown>>
  }
}

/** `tar tvzf` of a published tarball: mode and path of each entry. */
const entries = async (name: string) => {
  const { stdout } = await run("tar", ["tzvf", tarballs.get(name)!], { cwd: scratch, env: baseEnv })
  return stdout.trim().split("\n").map((line) => ({ mode: line.split(/\s+/)[0]!, file: line.split(/\s+/).at(-1)! }))
}

/** One file of a published tarball. */
const fileOf = async (name: string, file: string) =>
  (await run("tar", ["xzOf", tarballs.get(name)!, `package/${file}`], { cwd: scratch, env: baseEnv })).stdout

/** Every installed copy of each named package in a project, as directories, found by walking `node_modules`. */
const installedCopies = async (dir: string, names: ReadonlySet<string>): Promise<Array<string>> => {
  const found: Array<string> = []
  const walk = async (modules: string): Promise<void> => {
    const list = await readdir(modules, { withFileTypes: true }).catch(() => [])
    for (const entry of list) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue
      const dirs = entry.name.startsWith("@")
        ? (await readdir(path.join(modules, entry.name))).map((name) => path.join(modules, entry.name, name))
        : [path.join(modules, entry.name)]
      for (const pkg of dirs) {
        const name = await readFile(path.join(pkg, "package.json"), "utf8").then(
          (text) => (JSON.parse(text) as { name?: string }).name,
          () => undefined
        )
        if (name !== undefined && names.has(name)) found.push(name)
        await walk(path.join(pkg, "node_modules"))
      }
    }
  }
  await walk(path.join(dir, "node_modules"))
  return found.sort()
}

describe("the release, rehearsed against a real registry", () => {
  it("version-packages moved every published package to one new version, and the registry serves each at it as latest", async () => {
    expect(version).not.toBe(published[0]!.version)
    for (const pkg of published) {
      const document = await packument(pkg.name)
      expect(document["dist-tags"].latest, pkg.name).toBe(version)
      expect(Object.keys(document.versions), pkg.name).toEqual([version])
    }
  })

  it("each published changelog leads with the new version's entry above the first release's", async () => {
    for (const pkg of published) {
      const changelog = await fileOf(pkg.name, "CHANGELOG.md")
      const headings = [...changelog.matchAll(/^## (\S+)$/gm)].map((match) => match[1])
      expect(headings[0], pkg.name).toBe(version)
      expect(headings, pkg.name).toContain(pkg.version)
    }
    // The changeset's own words stand in the entry of the package it named.
    const core = await fileOf("@community-api/core", "CHANGELOG.md")
    expect(core.split(`## ${published.find((pkg) => pkg.name === "@community-api/core")!.version}`)[0]).toContain(
      "Rehearsal of a release"
    )
  })

  it("a name of ours that was never published is not found, and nothing of ours is cached from elsewhere", async () => {
    const response = await fetch(`${registry!.url}${ourScope}%2fnever-published`)
    expect(response.status).toBe(404)
    const stored = await readdir(path.join(scratch, "registry", "storage", ourScope))
    expect(stored.sort()).toEqual(published.map((pkg) => pkg.name.slice(ourScope.length + 1)).sort())
  })

  it("every published manifest is ready for a registry: real ranges, metadata, public access, no path back into the repository", async () => {
    const ours = new Map(published.map((pkg) => [pkg.name, pkg]))
    for (const pkg of published) {
      const manifest = JSON.parse(await fileOf(pkg.name, "package.json")) as Record<string, unknown>
      const text = JSON.stringify(manifest)
      expect(text, pkg.name).not.toContain("workspace:")
      for (const field of ["repository", "homepage", "bugs", "keywords", "license", "engines"]) {
        expect(manifest[field], `${pkg.name} ${field}`).toBeDefined()
      }
      expect((manifest.repository as { directory?: string }).directory, pkg.name).toBe(pkg.folder)
      expect((manifest.publishConfig as { access?: string } | undefined)?.access, pkg.name).toBe("public")
      // Nothing a consumer runs leaves the package: no install-time script, no bin or export outside it.
      const scripts = (manifest.scripts ?? {}) as Record<string, string>
      for (const hook of ["preinstall", "install", "postinstall", "prepare"]) {
        expect(scripts[hook], pkg.name).toBeUndefined()
      }
      const runnable = JSON.stringify([manifest.bin, manifest.exports, manifest.main, manifest.types])
      expect(runnable, pkg.name).not.toMatch(/\.\.\//)
      // Our own packages are dependencies at the caret range of the version released together.
      const dependencies = (manifest.dependencies ?? {}) as Record<string, string>
      for (const [name, range] of Object.entries(dependencies)) {
        expect(ours.has(name), `${pkg.name} depends on ${name}`).toBe(true)
        expect(range, `${pkg.name} → ${name}`).toBe(`^${version}`)
      }
    }
  })

  it("each library ships dist, README, LICENSE and CHANGELOG and no tests; the programs their bundle and its notices", async () => {
    for (const pkg of published) {
      const files = (await entries(pkg.name)).map((entry) => entry.file)
      expect(files, pkg.name).toEqual(expect.arrayContaining([
        "package/package.json",
        "package/README.md",
        "package/LICENSE",
        "package/CHANGELOG.md"
      ]))
      expect(
        files.filter((file) => /\.tsbuildinfo$|(^|\/)test\/|\.test\.[cm]?[jt]s$|bundle\.json$/.test(file)),
        pkg.name
      )
        .toEqual([])
      if (programs.has(pkg.name)) {
        expect(files, pkg.name).toContain("package/build/THIRD_PARTY_NOTICES.md")
        expect(files.filter((file) => file.startsWith("package/dist/") || file.startsWith("package/src/")), pkg.name)
          .toEqual([])
      } else {
        expect(files, pkg.name).toEqual(expect.arrayContaining(["package/dist/index.js", "package/dist/index.d.ts"]))
      }
      const manifest = JSON.parse(await fileOf(pkg.name, "package.json")) as { bin?: Record<string, string> }
      for (const bin of Object.values(manifest.bin ?? {})) {
        const entry = (await entries(pkg.name)).find((candidate) =>
          candidate.file === `package/${bin.replace(/^\.\//, "")}`
        )
        expect(entry?.mode, `${pkg.name} ${bin}`).toMatch(/^-rwx/)
      }
    }
    expect((await entries("@community-api/schema")).map((entry) => entry.file)).toContain("package/openapi.json")
    expect((await entries("@community-api/effect4-server")).map((entry) => entry.file)).toEqual(
      expect.arrayContaining([
        "package/engine/engine.js",
        "package/engine/sandbox.js",
        "package/engine/THIRD_PARTY_NOTICES.md"
      ])
    )
  })

  it("publint finds nothing in any published tarball", async () => {
    for (const pkg of published) {
      const tarball = await readFile(tarballs.get(pkg.name)!)
      const { messages } = await publint({
        pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) },
        level: "suggestion"
      })
      expect(messages, pkg.name).toEqual([])
    }
  }, 300_000)

  it("Are The Types Wrong finds nothing in any published library under its esm-only profile", async () => {
    const check = async (pkg: PublishedPackage) => {
      const output = await run(
        process.execPath,
        [attwBin, tarballs.get(pkg.name)!, "--profile", "esm-only", "--no-definitely-typed", "--format", "json"],
        { cwd: scratch, env: baseEnv, allowFailure: true }
      )
      const report = JSON.parse(output.stdout) as {
        analysis?: { problems?: ReadonlyArray<{ readonly resolutionKind?: string }> }
      }
      expect(output.code, `${pkg.name}\n${output.stdout}${output.stderr}`).toBe(0)
      // The JSON lists what every resolution mode finds; the profile leaves out the two that cannot
      // load an ES-module-only package (CommonJS `require` and the pre-exports `node10`).
      const problems = (report.analysis?.problems ?? []).filter((problem) =>
        !esmOnlyIgnores.includes(problem.resolutionKind ?? "")
      )
      expect(problems, pkg.name).toEqual([])
    }
    // Two at a time: each loads its own TypeScript.
    for (let i = 0; i < libraries.length; i += 2) await Promise.all(libraries.slice(i, i + 2).map(check))
  }, 600_000)
})

describe.each(["effect3", "effect4"] as const)("the %s line, installed by name outside the repository", (line) => {
  it("the README's Install section names every package and range installed here", () => {
    const install = Readme.section("## Install")
    for (const spec of [...lines[line].dependencies, ...lines[line].devDependencies]) {
      if (spec.startsWith("@community-api/") || spec.startsWith("@effect/") || spec.startsWith("effect@")) {
        expect(install, spec).toContain(spec)
      }
    }
  })

  it("exactly one copy of effect and of each package of ours is installed, of the line's effect", async () => {
    const dir = projects.get(line)!
    const names = new Set(["effect", "@effect/platform", ...published.map((pkg) => pkg.name)])
    const copies = await installedCopies(dir, names)
    expect(copies).toEqual([...new Set(copies)])
    const effect = JSON.parse(await readFile(path.join(dir, "node_modules/effect/package.json"), "utf8"))
    expect(effect.version).toMatch(line === "effect3" ? /^3\./ : /^4\.1\./)
    if (line === "effect4") {
      expect(
        copies.filter((name) => ["@effect/platform", "@community-api/schema", "@community-api/client"].includes(name))
      )
        .toEqual([])
    }
  })

  it("tsc with strict settings accepts the README's examples and a module using the packages' types", async () => {
    const dir = projects.get(line)!
    const tsc = path.join(dir, "node_modules", "typescript", "bin", "tsc")
    const output = await run(node22, [tsc, "-p", "tsconfig.json"], {
      cwd: dir,
      env: onNode(node22, userEnv),
      allowFailure: true
    })
    expect(output.stdout + output.stderr).toBe("")
    expect(output.code).toBe(0)
  }, 300_000)

  it.each(nodes)(
    "on Node %s: a plain script, the README's service against the sandbox of the line's server bin, and its test file",
    async (major, node) => {
      const dir = projects.get(line)!
      const env = onNode(node, userEnv)
      const origin = origins.get(line)!
      const main = await run(node, ["main.mjs", tenantUrl(origin, `main-${line}-${major}`)], { cwd: dir, env })
      const me = { user_id: DemoFixture.userIds.owner, auth: "personal_token", client_id: "personal" }
      expect(JSON.parse(main.stdout)).toEqual(
        line === "effect3" ? me : { me, missing: { tag: "InvalidParameterError", code: 7 } }
      )
      // Two copies of effect in one process print this warning on every run of an effect.
      expect(main.stderr).not.toContain("Executing an Effect versioned")

      const service = await run("npx", ["tsx", "bots.ts"], {
        cwd: dir,
        env: {
          ...env,
          COMMUNITY_API_BASE_URL: tenantUrl(origin, `bots-${line}-${major}`),
          COMMUNITY_API_TOKEN: DemoFixture.tokens.owner
        }
      })
      const summary = /enabled (\d+) bots, (\d+) could not be enabled/.exec(service.stdout + service.stderr)
      expect(summary, service.stdout + service.stderr).not.toBeNull()
      expect(Number(summary![1])).toBeGreaterThan(0)
      expect(Number(summary![2])).toBeGreaterThan(0)

      const tests = await run("npx", [
        "vitest",
        "run",
        "example.test.ts",
        "--reporter=json",
        "--outputFile=report.json"
      ], {
        cwd: dir,
        env,
        allowFailure: true
      })
      expect(tests.code, tests.stdout + tests.stderr).toBe(0)
      const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"))
      expect(report.numTotalTests).toBeGreaterThan(0)
      expect(report.numPassedTests).toBe(report.numTotalTests)

      if (line === "effect3") {
        for (const file of ["contract.ts", "limits.ts"]) {
          await run("npx", ["tsx", file], { cwd: dir, env: { ...env, TOKEN: "example" } })
        }
      }
    },
    600_000
  )

  it("npm refuses the other line's schema beside this line's effect, naming the conflict", async () => {
    const other = line === "effect3" ? "@community-api/effect4-schema" : "@community-api/schema"
    const output = await run("npm", ["install", "--dry-run", other], {
      cwd: projects.get(line)!,
      env: onNode(node22, userEnv),
      allowFailure: true
    })
    expect(output.code).not.toBe(0)
    expect(output.stdout + output.stderr).toContain("ERESOLVE")
  })

  it("the installed packages carry their changelog", async () => {
    const name = line === "effect3" ? "@community-api/client" : "@community-api/effect4-client"
    const changelog = await readFile(path.join(projects.get(line)!, "node_modules", name, "CHANGELOG.md"), "utf8")
    expect(changelog).toContain(`## ${version}`)
  })
})

describe.each(nodes)("the programs by name with npx, on Node %s", (major, node) => {
  it("npx @community-api/cli users me answers for the demo owner, and its --version is the release's", async () => {
    const dir = await mkdtemp(path.join(scratch, "cli-"))
    const output = await run("npx", ["-y", "@community-api/cli", "users", "me"], {
      cwd: dir,
      env: {
        ...onNode(node, userEnv),
        COMMUNITY_API_BASE_URL: tenantUrl(origins.get("effect3")!, `cli-${major}`),
        COMMUNITY_API_TOKEN: DemoFixture.tokens.owner
      }
    })
    expect(output.stdout).toContain(String(DemoFixture.userIds.owner))
    expect(output.stdout).toContain("personal_token")
    // The version it tells is the one just released, not one written in its code.
    const told = await run("npx", ["-y", "@community-api/cli", "--version"], { cwd: dir, env: onNode(node, userEnv) })
    expect(told.stdout.trim()).toBe(version)
  }, 300_000)

  it(
    "the README's assistant configuration starts npx -y @community-api/mcp under the MCP SDK's stdio transport: it says the release's version",
    async () => {
      const config = JSON.parse(Readme.block("## The MCP server", "json")) as {
        mcpServers: Record<string, { command: string; args: Array<string>; env?: Record<string, string> }>
      }
      const server = Object.values(config.mcpServers)[0]!
      expect([server.command, ...server.args]).toEqual(["npx", "-y", "@community-api/mcp"])
      // The SDK passes only a short list of variables unless told: the registry and cache go in `env`,
      // as an assistant's configuration would set them for a company registry.
      const env = onNode(node, userEnv)
      const transport = new StdioClientTransport({
        command: server.command,
        args: server.args,
        cwd: await mkdtemp(path.join(scratch, "mcp-")),
        stderr: "pipe",
        env: {
          PATH: env.PATH!,
          HOME: env.HOME ?? scratch,
          npm_config_registry: registry!.url,
          npm_config_cache: env.npm_config_cache!,
          npm_config_userconfig: env.npm_config_userconfig!,
          npm_config_update_notifier: "false",
          ...server.env,
          COMMUNITY_API_BASE_URL: tenantUrl(origins.get("effect3")!, `mcp-${major}`),
          COMMUNITY_API_TOKEN: DemoFixture.tokens.owner
        }
      })
      const client = new Client({ name: "rehearsal", version: "1.0.0" })
      // The first start installs the package: a bound on a hang only.
      await client.connect(transport, { timeout: 300_000 })
      try {
        expect(client.getServerVersion()?.version).toBe(version)
        const { tools } = await client.listTools()
        expect(tools.map((tool) => tool.name)).toContain("users_me")
        const result = await client.callTool({ name: "users_me", arguments: {} })
        expect(result.isError ?? false).toBe(false)
        expect(JSON.stringify(result.structuredContent)).toContain(String(DemoFixture.userIds.owner))
      } finally {
        await client.close()
      }
    },
    360_000
  )
})
