/**
 * `COMMUNITY_API_REDIS_URL`: against a real API (the sandbox on a loopback port) the server's pacing
 * and creation quota run on that Redis, so that an assistant spends the same limits as the user's
 * scripts and services, and `limits_get` reads what all of them left. The compiled server is spawned
 * by the MCP SDK's client (`Mcp.ts`); a real `redis-server` on a free loopback port
 * (`scripts/redis.mjs`) keeps every command it runs (`scripts/redis-cli.mjs`), so that the test reads
 * which keys the limiters used, whenever they expire.
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Target from "@community-api/client/Target"
import { GroupId } from "@community-api/schema/Ids"
import * as DemoFixture from "@community-api/server/DemoFixture"
import { NodeHttpClient } from "@effect/platform-node"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import * as Calendar from "../../../lines/effect3/client/test/support/Calendar.js"
import * as RedisServer from "../../../lines/effect3/client/test/support/RedisServer.js"
import { sandboxOnPort } from "../../../lines/effect3/server/test/portSupport.js"
import { recordCommands } from "../../../scripts/redis-cli.mjs"
import * as RedisCluster from "../../../tests/client-behaviour/src/RedisCluster.js"
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

  it("L2 L4 limits_get reads the creation another process of the user counted in that Redis", async () => {
    // Another process of the user, as a service is: the client with its limiters in the same Redis.
    const otherProcess = Target.layer(
      {
        _tag: "Remote",
        baseUrl: sandbox.baseUrl(),
        token: Redacted.make(tokens.owner),
        redisUrl: Option.some(Redacted.make(redis.url))
      },
      { sandbox: Effect.die("a real API is named") }
    ).pipe(Layer.provide(NodeHttpClient.layer))
    const creations = async () => {
      const answer = await server.call("limits_get")
      expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
      const result = (answer.structuredContent as { readonly result: Record<string, any> }).result
      expect(result.limiters).toBe("redis")
      return result.creations as Record<"minute" | "day", { readonly used: number; readonly left: number }>
    }
    const [before, after] = await Calendar.inOneWindow("minute", async ({ begin, retry }) => {
      await begin()
      const before = await creations()
      await Effect.runPromise(
        Effect.flatMap(CommunityApiClient.CommunityApiClient, (client) =>
          client.vars.create({
            group_id: GroupId.make(mainCommunity.group_id),
            channel: mainCommunity.channel,
            title: "Общий бюджет",
            name: `shared_budget_mcp_${retry}`
          })).pipe(Effect.provide(otherProcess))
      )
      return [before, await creations()] as const
    })
    for (const window of ["minute", "day"] as const) {
      expect(after[window].used, window).toBe(before[window].used + 1)
      expect(after[window].left, window).toBe(before[window].left - 1)
    }
  }, Mcp.timeout)
})

describe("COMMUNITY_API_REDIS_URL naming a Redis Cluster, against the sandbox on a port", () => {
  const sandbox = sandboxOnPort()
  // Started before the server (hooks run in the order given) and stopped after it.
  let cluster: RedisCluster.RedisCluster | undefined
  beforeAll(async () => {
    cluster = await RedisCluster.start()
  }, 120_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  const server = Mcp.serverFor(() => ({
    COMMUNITY_API_BASE_URL: sandbox.baseUrl(),
    COMMUNITY_API_TOKEN: tokens.owner,
    COMMUNITY_API_REDIS_URL: cluster!.url
  }))

  it("L2 L4 a tool call counts its creation in the cluster, and limits_get reads it there", async () => {
    const created = await server.call("vars_create", { ...mainCommunity, title: "Кластер", name: "shared_cluster_mcp" })
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy()
    const answer = await server.call("limits_get")
    expect(answer.isError, JSON.stringify(answer.content)).toBeFalsy()
    const result = (answer.structuredContent as { readonly result: Record<string, any> }).result
    expect(result.limiters).toBe("redis")
    expect(result.creations.day.used).toBe(1)
  }, Mcp.timeout)
})
