/**
 * A real `redis-server` for the tests of a file or of the enclosing `describe` (the kit's, on this
 * line's runner). The tests of the command line and of the MCP server use it too, with what one
 * creation leaves in it (the commands it recorded, `scripts/redis-cli.mjs`).
 */
import { afterAll, beforeAll, expect } from "@effect/vitest"
import { recordedArguments, redisCommand } from "../../../../../scripts/redis-cli.mjs"
import * as Shared from "../../../../../tests/client-behaviour/src/RedisServer.js"

export const forTests = () => Shared.forTests({ afterAll, beforeAll })

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
