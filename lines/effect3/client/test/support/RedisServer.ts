/**
 * A real `redis-server` for the tests of a file or of the enclosing `describe`, on a free loopback port
 * (`scripts/redis.mjs`): started before them, stopped after them. The tests of the command line and of
 * the MCP server use it, with what one creation leaves in it (the commands it recorded,
 * `scripts/redis-cli.mjs`).
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { recordedArguments, redisCommand } from "../../../../../scripts/redis-cli.mjs"
import { type RedisServer, startRedisServer } from "../../../../../scripts/redis.mjs"

/**
 * Starts a `redis-server` before the tests (in the order of the hooks: register it before what needs
 * it running) and stops it after them. The server's `port` and `url` are read once it runs.
 */
export const forTests = (): Omit<RedisServer, "stop"> => {
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

/** The client's keys among recorded command arguments, by what they hold (`RedisStore.defaults.prefix`). */
export const clientKeys = (recorded: ReadonlyArray<string>) => ({
  permits: recorded.filter((value) => /^community-api:\{[^}]+\}:permits:in-flight$/.test(value)),
  creations: recorded.filter((value) => /^community-api:\{[^}]+\}:creations$/.test(value))
})

/**
 * Asserts what one creation by the user of `token` left in the Redis at `port` since its commands
 * were first recorded: one permit and one count of creations, under one hash tag for both limiters
 * (the user's, not the token), the creation counted for the minute, where the user's other processes
 * see it.
 */
export const expectOneCreation = async (port: number, token: string) => {
  const keys = clientKeys(await recordedArguments(port))
  expect(keys.permits).toHaveLength(1)
  expect(keys.creations).toHaveLength(1)
  expect(keys.permits[0]!.split("}")[0]).toBe(keys.creations[0]!.split("}")[0])
  expect(keys.creations[0]).not.toContain(token)
  expect(await redisCommand(port, "HGET", keys.creations[0]!, "inMinute")).toEqual(["1"])
}
