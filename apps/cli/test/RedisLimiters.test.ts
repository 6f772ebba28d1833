/**
 * `COMMUNITY_API_REDIS_URL`: against a real API (the sandbox on a loopback port) the command's pacing
 * and creation quota run on that Redis, shared with every other process of the user, and the embedded
 * sandbox ignores it. A real `redis-server` on a free loopback port (`scripts/redis.mjs`) keeps every
 * command it runs (`scripts/redis-cli.mjs`), so that the test reads which keys the limiters used,
 * whenever they expire. The command runs in process (`InProcess.ts`), with the environment given.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as RedisServer from "../../../packages/client/test/support/RedisServer.js"
import { recordCommands, recordedArguments } from "../../../scripts/redis-cli.mjs"
import { run } from "./support/InProcess.js"
import { community, sandboxOnPort } from "./support/Sandbox.js"

const { tokens } = DemoFixture

describe("COMMUNITY_API_REDIS_URL", () => {
  const sandbox = sandboxOnPort()
  const redis = RedisServer.forTests()

  beforeEach(async () => {
    await recordCommands(redis.port)
  })

  it("L1 L2 against a real API the command takes its permit and counts its creation in that Redis", async () => {
    const result = await run(["vars", "create", ...community, "--title", "Общий", "--name", "shared_redis_cli"], {
      env: { ...sandbox.env(tokens.owner), COMMUNITY_API_REDIS_URL: redis.url }
    })
    expect(result.code, result.stderr).toBe(0)
    await RedisServer.expectOneCreation(redis.port, tokens.owner)
  })

  it("L1 a read takes its permit in that Redis and counts no creation", async () => {
    const result = await run(["users", "me", "--json"], {
      env: { ...sandbox.env(tokens.owner), COMMUNITY_API_REDIS_URL: redis.url }
    })
    expect(result.code, result.stderr).toBe(0)
    const keys = RedisServer.clientKeys(await recordedArguments(redis.port))
    expect(keys.permits).toHaveLength(1)
    expect(keys.creations).toEqual([])
  })

  it("the embedded sandbox ignores it", async () => {
    const result = await run(["users", "me", "--json"], { env: { COMMUNITY_API_REDIS_URL: redis.url } })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stderr).toContain("embedded sandbox")
    const keys = RedisServer.clientKeys(await recordedArguments(redis.port))
    expect(keys.permits).toEqual([])
    expect(keys.creations).toEqual([])
  })
})
