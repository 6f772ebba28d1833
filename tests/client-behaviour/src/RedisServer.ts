/**
 * A real `redis-server` for the tests of a file or of the enclosing `describe`, on a free loopback
 * port (`scripts/redis.mjs`): started before them, stopped after them. Each line hands over its
 * runner's hooks (a hook of another vitest would not run).
 */
import { type RedisServer, startRedisServer } from "../../../scripts/redis.mjs"

/** The hooks of a line's runner. */
export interface Hooks {
  readonly beforeAll: (f: () => Promise<void>, timeout?: number) => void
  readonly afterAll: (f: () => Promise<void>) => void
}

/**
 * Starts a `redis-server` before the tests (in the order of the hooks: register it before what needs
 * it running) and stops it after them. The server's `port` and `url` are read once it runs.
 */
export const forTests = ({ afterAll, beforeAll }: Hooks): Omit<RedisServer, "stop"> => {
  let server: RedisServer | undefined
  beforeAll(async () => void (server = await startRedisServer()), 60_000)
  afterAll(async () => void (await server?.stop()))
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
