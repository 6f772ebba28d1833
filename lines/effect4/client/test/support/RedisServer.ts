/**
 * A real `redis-server` for the tests of a file, on a free loopback port (`scripts/redis.mjs`):
 * started before them, stopped after them. The Effect 3 line's support of the same name, on this line.
 */
import { afterAll, beforeAll } from "vitest"
import { type RedisServer, startRedisServer } from "../../../../../scripts/redis.mjs"

/**
 * Starts a `redis-server` before the tests (in the order of the hooks: register it before what needs
 * it running) and stops it after them. The server's `port` and `url` are read once it runs.
 */
export const forTests = (): Omit<RedisServer, "stop"> => {
  let server: RedisServer | undefined
  beforeAll(async () => {
    server = await startRedisServer()
  }, 60_000)
  afterAll(async () => {
    await server?.stop()
  })
  const running = () => {
    if (server === undefined) throw new Error("the redis-server of these tests is not running")
    return server
  }
  return {
    get port() {
      return running().port
    },
    get url() {
      return running().url
    }
  }
}
