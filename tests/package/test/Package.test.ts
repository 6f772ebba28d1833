/**
 * The libraries as an npm user gets them, following the README's Install section: packed with
 * the root script `pack:all` (each `pnpm pack` applies `publishConfig`, turns `workspace:^` into a
 * real range and builds `dist` in `prepack`), then installed with npm into a scratch project in the
 * OS temp dir, outside the workspace, next to the peers at the documented ranges: the Effect 3 line's
 * into one project, on the machine's Node, the Effect 4 line's into another, on Node 22 (the oldest
 * line Effect 4 runs on), each with its own `effect`.
 *
 * Nothing is built before: the script runs in a copy of the workspace's root files and of the
 * libraries, made without what git ignores (`dist`, `build`, `node_modules`), as a fresh clone of the
 * working tree would be. Only `node_modules` is shared, linked to the workspace's own, in place of
 * the clone's `pnpm install`. Packing in the workspace itself would rebuild the `dist` folders the
 * developer has, and could not show that a clone without them packs complete.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { nodeOf } from "../../../scripts/node-lines.mjs"

const root = path.resolve(import.meta.dirname, "../../..")
const fixture = path.resolve(import.meta.dirname, "fixture")
const fixtureEffect4 = path.resolve(import.meta.dirname, "fixture-effect4")
/** The core and the Effect 3 line, in `packages/`. */
const libraries = ["core", "schema", "client", "server"] as const
type Library = typeof libraries[number]
/** The Effect 4 line, in `effect4/`, named `effect4-<folder>`. */
const effect4Libraries = ["effect4-schema", "effect4-client", "effect4-server"] as const
type Effect4Library = typeof effect4Libraries[number]
type AnyLibrary = Library | Effect4Library

/** A library's folder, relative to the root. */
const folderOf = (library: AnyLibrary): string =>
  library.startsWith("effect4-") ? `effect4/${library.slice("effect4-".length)}` : `packages/${library}`

/** The README's command that makes the tarballs, run in the clone after `npx -y pnpm@10 install`. */
const packCommand = ["npx", "-y", "pnpm@10", "pack:all"] as const

/** The peers as the README's Install section pins them (the newest platform-node is Effect 4). */
const peers = ["effect@^3.22.4", "@effect/platform@^0.97.2", "@effect/platform-node@^0.108.2"]

/** What a strict type-check needs besides, as the README says (`@types/ws` for platform-node's `ws`). */
const typeTools = ["typescript@^5.9", "@types/node@^20", "@types/ws@^8"]

/** The Effect 4 line's peer, as the README's Install section pins it, and its type-check's tools. */
const effect4Peers = ["effect@~4.1.0"]
const effect4TypeTools = ["typescript@^5.9", "@types/node@^22"]

/** Files and folders at the workspace's root that a clone has and `pack:all` uses. */
const rootFiles = ["package.json", "pnpm-workspace.yaml", "tsconfig.base.json", "scripts/pack.mjs"]

/** What the workspace's .gitignore keeps out of a clone, by name at any depth. */
const ignored = (name: string) =>
  ["node_modules", "dist", "build", "coverage", ".turbo"].includes(name) || name.endsWith(".tsbuildinfo")

/** What each library needs at run time from the user's own Effect installation. */
const peerNames: Record<Library, ReadonlyArray<string>> = {
  core: [],
  schema: ["effect"],
  client: ["@effect/platform", "effect"],
  server: ["@effect/platform", "@effect/platform-node", "effect"]
}

/** Optional peers: needed only by a part the user asks for (the client's Redis store, ioredis). */
const optionalPeerNames: Record<Library, ReadonlyArray<string>> = {
  core: [],
  schema: [],
  client: ["ioredis"],
  server: []
}

/** Without the variables of the pnpm script running this test, so npm sees only the scratch project. */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) =>
    !/^(npm_package_|npm_lifecycle_|npm_config_local_prefix$|npm_command$|pnpm_|PNPM_)/.test(key)
  )
)

interface Output {
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command to its end; a failure carries its output, so the test report says what went wrong. */
const run = (command: string, args: ReadonlyArray<string>, cwd: string, env = childEnv): Promise<Output> =>
  new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve({ stdout, stderr })
      else reject(new Error(`${command} ${args.join(" ")} failed (${error.message})\n${stdout}\n${stderr}`))
    })
  })

/** Every installed copy of each named package, as directories, found by walking `node_modules`. */
const installedCopies = async (dir: string, names: ReadonlySet<string>): Promise<Array<[string, string]>> => {
  const found: Array<[string, string]> = []
  const walk = async (modules: string): Promise<void> => {
    const entries = await readdir(modules, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith(".")) continue
      const dirs = entry.name.startsWith("@")
        ? (await readdir(path.join(modules, entry.name))).map((name) => path.join(modules, entry.name, name))
        : [path.join(modules, entry.name)]
      for (const pkg of dirs) {
        const manifest = await readFile(path.join(pkg, "package.json"), "utf8").then(
          (text) => JSON.parse(text) as { name?: string },
          () => ({ name: undefined })
        )
        if (manifest.name !== undefined && names.has(manifest.name)) found.push([manifest.name, pkg])
        await walk(path.join(pkg, "node_modules"))
      }
    }
  }
  await walk(path.join(dir, "node_modules"))
  return found
}

/** Whether a file or folder exists. */
const exists = (file: string) => stat(file).then(() => true, () => false)

/** A copy of the workspace as a fresh clone has it, for the libraries only; `node_modules` linked. */
const cloneWorkspace = async (clone: string): Promise<void> => {
  for (const file of rootFiles) await cp(path.join(root, file), path.join(clone, file))
  await symlink(path.join(root, "node_modules"), path.join(clone, "node_modules"), "dir")
  for (const library of [...libraries, ...effect4Libraries]) {
    const from = path.join(root, folderOf(library))
    const to = path.join(clone, folderOf(library))
    await cp(from, to, { recursive: true, filter: (source) => !ignored(path.basename(source)) })
    await symlink(path.join(from, "node_modules"), path.join(to, "node_modules"), "dir")
  }
}

let scratch = ""
let project = ""
let project4 = ""
const tarballs = new Map<AnyLibrary, string>()
let sandbox: ChildProcess | undefined
let sandbox4: ChildProcess | undefined

/** Node 22's binary, and an environment whose `node` (for npm and the bins) is that one. */
const node22 = nodeOf("22")
const env22 = { ...childEnv, PATH: `${path.dirname(node22)}${path.delimiter}${childEnv.PATH ?? ""}` }

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), "community-api-package-"))
  project = path.join(scratch, "project")
  project4 = path.join(scratch, "project-effect4")
  const clone = path.join(scratch, "clone")
  await mkdir(project)
  await mkdir(project4)
  await cloneWorkspace(clone)
  for (const library of [...libraries, ...effect4Libraries]) {
    expect(await exists(path.join(clone, folderOf(library), "dist"))).toBe(false)
  }
  const [command, ...args] = packCommand
  const { stdout } = await run(command, args, clone)
  // One absolute path a line, in the clone's packs/ (the real path, where the temp dir is a link).
  const printed = stdout.split("\n").map((line) => line.trim()).filter((line) => line.endsWith(".tgz"))
  expect(printed.map((file) => path.basename(path.dirname(file)))).toEqual(
    [...libraries, ...effect4Libraries].map(() => "packs")
  )
  for (const file of printed) expect(await exists(file)).toBe(true)
  for (const library of [...libraries, ...effect4Libraries]) {
    const file = printed.find((candidate) => path.basename(candidate).startsWith(`community-api-${library}-`))
    expect(file).toBeDefined()
    tarballs.set(library, file!)
  }
  await writeFile(
    path.join(project, "package.json"),
    JSON.stringify({ name: "scratch-project", version: "1.0.0", private: true, type: "module" }, null, 2)
  )
  for (const file of ["main.mjs", "consumer.ts", "tsconfig.json"]) {
    await copyFile(path.join(fixture, file), path.join(project, file))
  }
  await run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...libraries.map((library) => tarballs.get(library)!),
      ...peers,
      ...typeTools
    ],
    project
  )
  // The Effect 4 project, on Node 22: the core and the Effect 4 line's tarballs, effect 4.1.
  await writeFile(
    path.join(project4, "package.json"),
    JSON.stringify({ name: "scratch-project-effect4", version: "1.0.0", private: true, type: "module" }, null, 2)
  )
  for (const file of ["main.mjs", "consumer.ts", "tsconfig.json"]) {
    await copyFile(path.join(fixtureEffect4, file), path.join(project4, file))
  }
  await run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...["core", ...effect4Libraries].map((library) => tarballs.get(library as AnyLibrary)!),
      ...effect4Peers,
      ...effect4TypeTools
    ],
    project4,
    env22
  )
})

afterAll(async () => {
  sandbox?.kill("SIGKILL")
  sandbox4?.kill("SIGKILL")
  if (scratch !== "") await rm(scratch, { recursive: true, force: true })
})

/** `tar tvzf` lines of a tarball: mode and path of each entry. */
const entries = async (library: AnyLibrary) => {
  const { stdout } = await run("tar", ["tzvf", tarballs.get(library)!], scratch)
  return stdout.trim().split("\n").map((line) => ({ mode: line.split(/\s+/)[0]!, file: line.split(/\s+/).at(-1)! }))
}

/** Starts the `community-api-sandbox` bin installed in `dir` on a free port; its base URL once it serves. */
const startSandbox = async (dir: string, env: NodeJS.ProcessEnv) => {
  const bin = path.join(dir, "node_modules", ".bin", "community-api-sandbox")
  const child = spawn(bin, ["--port", "0", "--quiet"], { cwd: dir, env })
  let banner = ""
  const baseUrl = await new Promise<string>((resolve, reject) => {
    // A bound on a hung start only; no assertion depends on how fast it is.
    const guard = setTimeout(() => reject(new Error(`the sandbox did not start:\n${banner}`)), 120_000)
    child.stdout.on("data", (chunk) => {
      banner += chunk
      const match = /(http:\/\/127\.0\.0\.1:\d+\/external-api\/v2)/.exec(banner)
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
  return { baseUrl, child }
}

describe("the packed libraries, installed with npm outside the workspace", () => {
  it("the README's Install section gives the command that made the tarballs, their names and the ranges used here", async () => {
    const readme = await readFile(path.join(root, "README.md"), "utf8")
    const start = readme.indexOf("\n## Install\n")
    const install = readme.slice(start, readme.indexOf("\n## ", start + 1))
    expect(install).toContain("not on the public npm registry")
    expect(install).toContain(`npx -y pnpm@10 install && ${packCommand.join(" ")}`)
    for (const library of libraries) {
      const name = path.basename(tarballs.get(library)!)
      const version = JSON.parse(await readFile(path.join(root, "packages", library, "package.json"), "utf8")).version
      expect(name).toBe(`community-api-${library}-${version}.tgz`)
      expect(install).toContain(`$PACKS/${name}`)
    }
    for (const spec of [...peers, "@types/ws@^8"]) expect(install).toContain(spec)
  })

  it("each tarball ships dist, README.md and LICENSE but no tests or .tsbuildinfo; the schema ships openapi.json, the server an executable bin", async () => {
    for (const library of libraries) {
      const files = (await entries(library)).map((entry) => entry.file)
      expect(files).toEqual(expect.arrayContaining([
        "package/package.json",
        "package/README.md",
        "package/LICENSE",
        "package/dist/index.js",
        "package/dist/index.d.ts"
      ]))
      expect(files.filter((file) => /\.tsbuildinfo$|(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(file))).toEqual([])
    }
    expect((await entries("schema")).map((entry) => entry.file)).toContain("package/openapi.json")
    const bin = (await entries("server")).find((entry) => entry.file === "package/bin/community-api-sandbox.js")
    expect(bin?.mode).toMatch(/^-rwx/)
  })

  it("the packed manifests have peers for effect and the platform (none for the core), and real ranges for our own packages", async () => {
    const versions = new Map<string, string>()
    for (const library of libraries) {
      const workspace = JSON.parse(await readFile(path.join(root, "packages", library, "package.json"), "utf8"))
      versions.set(workspace.name, workspace.version)
    }
    for (const library of libraries) {
      const workspace = JSON.parse(await readFile(path.join(root, "packages", library, "package.json"), "utf8"))
      const { stdout } = await run("tar", ["xzOf", tarballs.get(library)!, "package/package.json"], scratch)
      const manifest = JSON.parse(stdout) as Record<string, Record<string, string> | undefined>
      // Only packages of ours are dependencies, each at the caret range of its version; the core has none.
      const ours = Object.keys(workspace.dependencies ?? {})
      expect(ours.every((name) => versions.has(name)), library).toBe(true)
      expect(manifest.dependencies ?? {}).toEqual(
        Object.fromEntries(ours.map((name) => [name, `^${versions.get(name)}`]))
      )
      if (library === "core") expect(manifest.dependencies ?? {}).toEqual({})
      else expect(manifest.dependencies?.["@community-api/core"]).toBeDefined()
      expect(Object.keys(manifest.peerDependencies ?? {}).sort()).toEqual(
        [...peerNames[library], ...optionalPeerNames[library]].sort()
      )
      const meta = (manifest as Record<string, unknown>).peerDependenciesMeta as
        | Record<string, { readonly optional?: boolean }>
        | undefined
      expect(Object.keys(meta ?? {}).filter((name) => meta?.[name]?.optional === true).sort()).toEqual(
        optionalPeerNames[library]
      )
      if (library !== "core") expect(manifest.peerDependencies?.effect).toMatch(/^\^3\./)
      expect(JSON.stringify(manifest)).not.toContain("workspace:")
    }
  })

  it("a plain Node ESM script calls the packed client against the packed server's bin and gets the demo users/me answer", async () => {
    const { baseUrl, child } = await startSandbox(project, childEnv)
    sandbox = child
    const { stderr, stdout } = await run(process.execPath, ["main.mjs", baseUrl], project)
    child.kill("SIGTERM")
    expect(JSON.parse(stdout)).toEqual({
      user_id: DemoFixture.userIds.owner,
      auth: "personal_token",
      client_id: "personal"
    })
    // Two copies of effect in one process print this warning on every run of an effect.
    expect(stderr).not.toContain("Executing an Effect versioned")
  })

  it("tsc --noEmit with strict, exactOptionalPropertyTypes and NodeNext accepts a module using the packages' types", async () => {
    const tsc = path.join(project, "node_modules", "typescript", "bin", "tsc")
    const { stdout } = await run(process.execPath, [tsc, "-p", "tsconfig.json"], project)
    expect(stdout).toBe("")
  })

  it("exactly one copy of effect, @effect/platform, the core and the schema is installed, shared by every package", async () => {
    const names = new Set(["effect", "@effect/platform", "@community-api/core", "@community-api/schema"])
    const copies = await installedCopies(project, names)
    expect(copies.map(([name]) => name).sort()).toEqual([...names].sort())
    const effect = JSON.parse(await readFile(path.join(project, "node_modules/effect/package.json"), "utf8"))
    expect(effect.version).toMatch(/^3\./)
  })
})

describe("the packed Effect 4 line, installed with npm outside the workspace on Node 22", () => {
  it("the README's Install section names the Effect 4 tarballs and effect's range", async () => {
    const readme = await readFile(path.join(root, "README.md"), "utf8")
    const start = readme.indexOf("\n## Install\n")
    const install = readme.slice(start, readme.indexOf("\n## ", start + 1))
    for (const library of effect4Libraries) expect(install).toContain(`$PACKS/${path.basename(tarballs.get(library)!)}`)
    for (const spec of effect4Peers) expect(install).toContain(spec)
  })

  it("each Effect 4 tarball ships dist but no tests; the server its engine and an executable bin", async () => {
    for (const library of effect4Libraries) {
      const files = (await entries(library)).map((entry) => entry.file)
      expect(files).toEqual(
        expect.arrayContaining(["package/package.json", "package/dist/index.js", "package/dist/index.d.ts"])
      )
      expect(files.filter((file) => /\.tsbuildinfo$|(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(file))).toEqual([])
    }
    const server = await entries("effect4-server")
    expect(server.map((entry) => entry.file)).toEqual(
      expect.arrayContaining(["package/engine/engine.js", "package/engine/sandbox.js"])
    )
    expect(server.find((entry) => entry.file === "package/bin/community-api-sandbox.js")?.mode).toMatch(/^-rwx/)
  })

  it("the packed manifests name effect 4.1 as their peer, Node 22.19 as their engine, and real ranges for ours", async () => {
    for (const library of effect4Libraries) {
      const { stdout } = await run("tar", ["xzOf", tarballs.get(library)!, "package/package.json"], scratch)
      const manifest = JSON.parse(stdout) as Record<string, Record<string, string> | undefined>
      expect(manifest.peerDependencies?.effect).toBe("~4.1.0")
      expect(manifest.engines?.node).toBe(">=22.19.0")
      expect(manifest.dependencies?.["@community-api/core"]).toMatch(/^\^\d/)
      expect(JSON.stringify(manifest)).not.toContain("workspace:")
    }
  })

  it("a plain Node ESM script calls the sandbox of the packed Effect 4 server with the packed client: users/me and a typed error", async () => {
    const { baseUrl, child } = await startSandbox(project4, env22)
    sandbox4 = child
    const { stderr, stdout } = await run(node22, ["main.mjs", baseUrl], project4, env22)
    child.kill("SIGTERM")
    expect(JSON.parse(stdout)).toEqual({
      me: { user_id: DemoFixture.userIds.owner, auth: "personal_token", client_id: "personal" },
      missing: { tag: "InvalidParameterError", code: 7 }
    })
    expect(stderr).toBe("")
  })

  it("tsc --noEmit with strict, exactOptionalPropertyTypes and NodeNext accepts a module using the Effect 4 packages' types", async () => {
    const tsc = path.join(project4, "node_modules", "typescript", "bin", "tsc")
    const { stdout } = await run(node22, [tsc, "-p", "tsconfig.json"], project4, env22)
    expect(stdout).toBe("")
  })

  it("exactly one copy of effect (4.1), of the core and of the Effect 4 schema is installed, and no Effect 3 package", async () => {
    const names = new Set(["effect", "@community-api/core", "@community-api/effect4-schema", "@effect/platform"])
    const copies = await installedCopies(project4, names)
    expect(copies.map(([name]) => name).sort()).toEqual([
      "@community-api/core",
      "@community-api/effect4-schema",
      "effect"
    ])
    const effect = JSON.parse(await readFile(path.join(project4, "node_modules/effect/package.json"), "utf8"))
    expect(effect.version).toMatch(/^4\.1\./)
  })

  it("npm refuses either line's schema beside the other line's effect, naming the conflict", async () => {
    const refused = async (dir: string, specs: ReadonlyArray<string>, env: NodeJS.ProcessEnv) => {
      const error = await run(
        "npm",
        ["install", "--dry-run", "--no-audit", "--no-fund", "--prefer-offline", ...specs],
        dir,
        env
      )
        .then(() => undefined, (e: Error) => e.message)
      expect(error, specs.join(" ")).toContain("ERESOLVE")
    }
    // Into the Effect 4 project (effect 4.1 installed), the Effect 3 schema; into the Effect 3 one, the Effect 4 schema.
    await refused(project4, [tarballs.get("schema")!], env22)
    await refused(project, [tarballs.get("effect4-schema")!], childEnv)
  })
})
