/**
 * The `redis-server` that the tests of the limiters' Redis store and benchmark B6 run against: a real
 * server, never a mock, started on a free loopback port without persistence and stopped after.
 *
 *   node scripts/redis.mjs    makes sure the binary is there and prints its path
 *
 * When the binary is missing it installs Debian's `redis-server` package with `apt-get` where it can
 * (as root, as on CI and the project's machines: `apt-get update` first if the install fails), and
 * otherwise stops with one line naming what to install. `.ci/run` runs it before the tests, and the
 * client package's vitest global setup runs it too, so that `npx vitest run` works alone.
 */
import { spawn } from "node:child_process"
import * as net from "node:net"
import * as os from "node:os"
import { clearTimeout, setTimeout } from "node:timers"
import { ensureProgram, runAsCommand } from "./debian.mjs"

/** The path of `redis-server`, installed first when missing and possible; throws with one line otherwise. */
export const ensureRedisServer = () => ensureProgram(["redis-server"], "redis-server")

/** A free TCP port on the loopback interface. */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })

/** Starts one `redis-server` on `port`; resolves once it accepts connections. */
const startOn = (binary, port) =>
  new Promise((resolve, reject) => {
    const child = spawn(
      binary,
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", os.tmpdir()],
      { stdio: ["ignore", "pipe", "pipe"] }
    )
    let output = ""
    const onData = (chunk) => {
      output += chunk
      if (output.includes("Ready to accept connections")) {
        child.stdout.off("data", onData)
        child.off("exit", onExit)
        // Drained from now on, so that a full pipe never stops the server.
        child.stdout.resume()
        resolve(child)
      }
    }
    const onExit = (code) => reject(new Error(`redis-server exited with ${code} before it was ready:\n${output}`))
    child.stdout.setEncoding("utf8").on("data", onData)
    child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk))
    child.once("exit", onExit)
    child.once("error", reject)
  })

/** Stops a server: SIGTERM, then SIGKILL if it is still there after 5 s. */
const stopChild = (child) =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000)
    child.once("exit", () => {
      clearTimeout(kill)
      resolve()
    })
    child.kill("SIGTERM")
  })

/**
 * Starts a `redis-server` on a free loopback port (or on `options.port`), without persistence:
 * `{ port, url, stop }`. A free port taken between the check and the start is tried again with another.
 */
export const startRedisServer = async (options = {}) => {
  const binary = ensureRedisServer()
  let lastError
  for (let attempt = 0; attempt < (options.port === undefined ? 3 : 1); attempt++) {
    const port = options.port ?? await freePort()
    try {
      const child = await startOn(binary, port)
      return { port, url: `redis://127.0.0.1:${port}`, stop: () => stopChild(child) }
    } catch (error) {
      lastError = error
    }
  }
  throw lastError
}

runAsCommand(import.meta.url, ensureRedisServer)
