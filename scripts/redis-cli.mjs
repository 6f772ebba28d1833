/**
 * Reads back what a program did to a test's `redis-server` (`redis.mjs`), through the `redis-cli` that
 * comes with it: the tests of the command line and the MCP server check that their limiters ran on
 * the Redis they were given without a Redis client library of their own. Every command the server
 * runs is kept, with its arguments, in its slow log once {@link recordCommands} has set the threshold
 * to 0 µs: nothing depends on when a key expires or on watching while the program runs.
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { ensureRedisServer } from "./redis.mjs"

/** `redis-cli` beside `redis-server` (Debian's package installs both), else the one on the PATH. */
const redisCli = () => {
  const beside = path.join(path.dirname(ensureRedisServer()), "redis-cli")
  return fs.existsSync(beside) ? beside : "redis-cli"
}

/** Runs one command on the server at `port`: the lines of its answer, one value a line. */
export const redisCommand = (port, ...args) =>
  new Promise((resolve, reject) =>
    execFile(redisCli(), ["-p", String(port), ...args], { encoding: "utf8" }, (error, stdout, stderr) => {
      if (error !== null || stdout.startsWith("ERR")) {
        reject(new Error(`redis-cli ${args.join(" ")}: ${stderr || stdout || error?.message}`))
      } else {
        resolve(stdout.split("\n").filter((line) => line !== ""))
      }
    })
  )

/** From now on the server at `port` keeps every command it runs (up to 10,000 of them), and none before. */
export const recordCommands = async (port) => {
  await redisCommand(port, "CONFIG", "SET", "slowlog-max-len", "10000")
  await redisCommand(port, "CONFIG", "SET", "slowlog-log-slower-than", "0")
  await redisCommand(port, "SLOWLOG", "RESET")
}

/**
 * The keys and other arguments of the commands kept since {@link recordCommands}, one a line (with the
 * log's own fields between them), and no repeats.
 */
export const recordedArguments = async (port) => [...new Set(await redisCommand(port, "SLOWLOG", "GET", "10000"))]
