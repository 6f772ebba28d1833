/**
 * `COMMUNITY_API_REDIS_URL`: against a real API (the sandbox on a loopback port) the command's pacing
 * and creation quota run on that Redis, shared with every other process of the user, and the embedded
 * sandbox ignores it. A real `redis-server` on a free loopback port (`scripts/redis.mjs`) keeps every
 * command it runs (`scripts/redis-cli.mjs`), so that the test reads which keys the limiters used,
 * whenever they expire. The command runs in process (`InProcess.ts`), with the environment given.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "@effect/vitest"
import * as RedisServer from "../../../lines/effect3/client/test/support/RedisServer.js"
import { recordCommands, recordedArguments } from "../../../scripts/redis-cli.mjs"
import * as RedisCluster from "../../../tests/client-behaviour/src/RedisCluster.js"
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

describe("COMMUNITY_API_REDIS_URL naming a Redis Cluster", () => {
  const sandbox = sandboxOnPort()
  let cluster: RedisCluster.RedisCluster | undefined
  beforeAll(async () => {
    cluster = await RedisCluster.start()
  }, 120_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  it("L2 L4 a command counts its creation in the cluster, and the next command reads it there", async () => {
    const env = { ...sandbox.env(tokens.owner), COMMUNITY_API_REDIS_URL: cluster!.url }
    const created = await run(["vars", "create", ...community, "--title", "Кластер", "--name", "shared_cluster_cli"], {
      env
    })
    expect(created.code, created.stderr).toBe(0)
    // A command of its own, with limiters of its own: what it reads of the day was counted in the cluster.
    const limits = await run(["limits", "--json"], { env })
    expect(limits.code, limits.stderr).toBe(0)
    const budget = JSON.parse(limits.stdout) as {
      readonly limiters: string
      readonly creations: { readonly day: { readonly used: number } }
    }
    expect(budget.limiters).toBe("redis")
    expect(budget.creations.day.used).toBe(1)
  })
})
