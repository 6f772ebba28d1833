/**
 * `COMMUNITY_API_REDIS_URL`: against a real API (the sandbox on a loopback port) the server's pacing
 * and creation quota run on that Redis, so that an assistant spends the same limits as the user's
 * scripts and services. The compiled server is spawned by the MCP SDK's client (`Mcp.ts`); a real
 * `redis-server` on a free loopback port (`scripts/redis.mjs`) keeps every command it runs
 * (`scripts/redis-cli.mjs`), so that the test reads which keys the limiters used, whenever they expire.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { recordCommands, recordedArguments, redisCommand } from "../../../scripts/redis-cli.mjs"
import { type RedisServer, startRedisServer } from "../../../scripts/redis.mjs"
import * as Mcp from "./support/Mcp.js"
import * as Sandbox from "./support/Sandbox.js"

const { mainCommunity, tokens } = DemoFixture

/** The client's keys in the recorded commands, by what they hold (`RedisStore.defaults.prefix`). */
const keysOf = (recorded: ReadonlyArray<string>) => ({
  permits: recorded.filter((value) => /^community-api:\{[^}]+\}:permits:in-flight$/.test(value)),
  creations: recorded.filter((value) => /^community-api:\{[^}]+\}:creations$/.test(value))
})

describe("COMMUNITY_API_REDIS_URL, against the sandbox on a port", () => {
  const sandbox = Sandbox.sandboxOnPort()
  let redis: RedisServer | undefined

  // Before the server's own hook: the server starts with the Redis running and recording.
  beforeAll(async () => {
    redis = await startRedisServer()
    await recordCommands(redis.port)
  }, 60_000)

  // Hooks after the tests run in reverse: the server stops before its Redis.
  afterAll(async () => {
    await redis?.stop()
  })

  const server = Mcp.serverFor(() => ({
    COMMUNITY_API_BASE_URL: sandbox.baseUrl(),
    COMMUNITY_API_TOKEN: tokens.owner,
    COMMUNITY_API_REDIS_URL: redis!.url
  }))

  it("L1 L2 a tool call takes its permit and counts its creation in that Redis", async () => {
    const created = await server.call("vars_create", { ...mainCommunity, title: "Общий", name: "shared_redis_mcp" })
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
    const keys = keysOf(await recordedArguments(redis!.port))
    expect(keys.permits).toHaveLength(1)
    expect(keys.creations).toHaveLength(1)
    expect(keys.permits[0]!.split("}")[0]).toBe(keys.creations[0]!.split("}")[0])
    expect(keys.creations[0]).not.toContain(tokens.owner)
    expect(await redisCommand(redis!.port, "HGET", keys.creations[0]!, "inMinute")).toEqual(["1"])
    expect((await sandbox.recentRequests()).length).toBeGreaterThan(0)
  }, Mcp.timeout)
})
