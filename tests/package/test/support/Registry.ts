/**
 * A real npm registry on a loopback port for the release rehearsal: Verdaccio (6.8.0, the last that
 * runs on the machine's Node 20), with fresh storage in a folder of the caller's, one throwaway user
 * made at start, and as its uplink for third-party packages the registry npm is configured with on this
 * machine — but never for `@community-api/*`: that scope is not ours on the public registry, so a
 * lookup of one of our names must be answered here or nowhere.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { mkdir, writeFile } from "node:fs/promises"
import { createRequire } from "node:module"
import * as path from "node:path"
import { freePort } from "../../../../scripts/redis.mjs"

/** A running registry. */
export interface Registry {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string
  /** The throwaway user's token, for `.npmrc`'s `//127.0.0.1:PORT/:_authToken=`. */
  readonly token: string
  /** The `.npmrc` line that gives the token to npm and pnpm for this registry. */
  readonly authLine: string
  /** What Verdaccio printed (its requests, its uplink's fetches and failures), for a failure's report. */
  readonly log: () => string
  readonly stop: () => void
}

/** The scope whose packages the registry serves from its own storage alone. */
export const ourScope = "@community-api"

const verdaccioBin = path.join(
  path.dirname(createRequire(import.meta.url).resolve("verdaccio/package.json")),
  "bin",
  "verdaccio"
)

/** The registry npm uses on this machine, as the uplink: asked of npm, never written down here. */
const upstream = (): string =>
  execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim().replace(/\/?$/, "/")

/**
 * The certificate authorities npm trusts for that registry (its `cafile`), if it names a file: the
 * uplink reaches the registry as npm does. Verdaccio is a plain Node process, which reads them only
 * from `NODE_EXTRA_CA_CERTS`, and a test runner may not pass that variable on (turbo does not); without
 * them, every fetch through the uplink fails, and Verdaccio answers each with a 404.
 */
const upstreamCaFile = (): string | undefined => {
  const file = execFileSync("npm", ["config", "get", "cafile"], { encoding: "utf8" }).trim()
  return file === "" || file === "null" || file === "undefined" ? undefined : file
}

/** Verdaccio's configuration: our scope local only, everything else through the uplink. */
const configuration = (storage: string, htpasswd: string): string =>
  [
    `storage: ${JSON.stringify(storage)}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(htpasswd)}`,
    "    max_users: 1",
    "uplinks:",
    "  upstream:",
    `    url: ${JSON.stringify(upstream())}`,
    "    timeout: 120s",
    "    max_fails: 5",
    "packages:",
    // No `proxy` here: a name of ours is looked up in this storage and nowhere else.
    `  '${ourScope}/*':`,
    "    access: $all",
    "    publish: $authenticated",
    "    unpublish: $authenticated",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "    proxy: upstream",
    "web:",
    "  enable: false",
    // Each request and each fetch through the uplink, for a failure's report.
    "log: { type: stdout, format: pretty, level: info }",
    ""
  ].join("\n")

/** Waits until `url` answers 200, or the process ends, or the bound on a hung start passes. */
const waitForPing = async (url: string, child: ChildProcess, output: () => string): Promise<void> => {
  const started = Date.now()
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited with ${child.exitCode}:\n${output()}`)
    const ok = await fetch(`${url}-/ping`).then((response) => response.ok, () => false)
    if (ok) return
    if (Date.now() - started > 120_000) throw new Error(`verdaccio did not answer at ${url}:\n${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** Starts Verdaccio with its storage under `dir` (made fresh by the caller) and makes the throwaway user. */
export const startRegistry = async (dir: string): Promise<Registry> => {
  await mkdir(path.join(dir, "storage"), { recursive: true })
  const config = path.join(dir, "config.yaml")
  await writeFile(config, configuration(path.join(dir, "storage"), path.join(dir, "htpasswd")))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/`
  let output = ""
  // On the machine's Node: Verdaccio 6.8.0 runs on Node 20, the versions after it want Node 22.
  const caFile = upstreamCaFile()
  const child = spawn(process.execPath, [verdaccioBin, "--config", config, "--listen", `127.0.0.1:${port}`], {
    cwd: dir,
    env: caFile === undefined ? process.env : { ...process.env, NODE_EXTRA_CA_CERTS: caFile },
    stdio: ["ignore", "pipe", "pipe"]
  })
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const stop = () => {
    child.kill("SIGKILL")
  }
  try {
    await waitForPing(url, child, () => output)
    const user = "rehearsal"
    const response = await fetch(`${url}-/user/org.couchdb.user:${user}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: user, password: `throwaway-${process.pid}-${Date.now()}` })
    })
    const body = await response.json() as { token?: string }
    if (!response.ok || typeof body.token !== "string") {
      throw new Error(`verdaccio refused the throwaway user (${response.status}): ${JSON.stringify(body)}`)
    }
    const token = body.token
    return { url, token, authLine: `//127.0.0.1:${port}/:_authToken=${token}`, log: () => output, stop }
  } catch (error) {
    stop()
    throw error
  }
}
