/**
 * The global setup of the client's tests: the suites of the Redis store run against a real
 * `redis-server`, installed first when it is missing and can be (`scripts/redis.mjs`); otherwise the
 * run stops with one line naming the package to install.
 */
import { ensureRedisServer } from "../../../../../scripts/redis.mjs"

export default function setup(): void {
  try {
    ensureRedisServer()
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`)
    process.exit(1)
  }
}
