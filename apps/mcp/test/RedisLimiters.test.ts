/**
 * `COMMUNITY_API_REDIS_URL`: against a real API (the sandbox on a loopback port) the server's pacing
 * and creation quota run on that Redis, so that an assistant spends the same limits as the user's
 * scripts and services. The compiled server is spawned by the MCP SDK's client (`Mcp.ts`); a real
 * `redis-server` on a free loopback port (`scripts/redis.mjs`) keeps every command it runs
 * (`scripts/redis-cli.mjs`), so that the test reads which keys the limiters used, whenever they expire.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { beforeAll, describe, expect, it } from "@effect/vitest"
import * as RedisServer from "../../../packages/client/test/support/RedisServer.js"
import { sandboxOnPort } from "../../../packages/server/test/portSupport.js"
import { recordCommands } from "../../../scripts/redis-cli.mjs"
import * as Mcp from "./support/Mcp.js"

const { mainCommunity, tokens } = DemoFixture

describe("COMMUNITY_API_REDIS_URL, against the sandbox on a port", () => {
  const sandbox = sandboxOnPort()
  // Before the server's own hooks: the server starts with the Redis running and recording, and (hooks
  // after the tests run in reverse) stops before its Redis.
  const redis = RedisServer.forTests()
  beforeAll(() => recordCommands(redis.port))

  const server = Mcp.serverFor(() => ({
    COMMUNITY_API_BASE_URL: sandbox.baseUrl(),
    COMMUNITY_API_TOKEN: tokens.owner,
    COMMUNITY_API_REDIS_URL: redis.url
  }))

  it("L1 L2 a tool call takes its permit and counts its creation in that Redis", async () => {
    const created = await server.call("vars_create", { ...mainCommunity, title: "Общий", name: "shared_redis_mcp" })
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
    await RedisServer.expectOneCreation(redis.port, tokens.owner)
    expect((await sandbox.recentRequests()).length).toBeGreaterThan(0)
  }, Mcp.timeout)
})
