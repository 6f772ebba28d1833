/**
 * What a Redis Cluster needs of the shared layout: the URL of a cluster's nodes read once for both
 * Effect lines (and named without credentials), and every key one script touches in one slot, which
 * a cluster requires of a script (the scripts touch only the keys they are given).
 */
import { describe, expect, it } from "vitest"
import * as RedisKeys from "../src/RedisKeys.js"
import * as RedisScripts from "../src/RedisScripts.js"
import * as RedisUrl from "../src/RedisUrl.js"

/** CRC16-CCITT (XModem), Redis Cluster's key hash. */
const crc16 = (text: string): number => {
  let crc = 0
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc
}

/** The slot of a key as Redis Cluster computes it: the first non-empty `{…}` hash tag, else the whole key. */
const slotOf = (key: string): number => {
  const open = key.indexOf("{")
  const close = open < 0 ? -1 : key.indexOf("}", open + 1)
  const hashed = open >= 0 && close > open + 1 ? key.slice(open + 1, close) : key
  return crc16(hashed) % 16_384
}

describe("Redis Cluster", () => {
  it("the slot function is Redis Cluster's (CLUSTER KEYSLOT's known answers)", () => {
    expect(slotOf("123456789")).toBe(12_739)
    expect(slotOf("{user1000}.following")).toBe(slotOf("{user1000}.followers"))
    // An empty first tag hashes the whole key; a tag ends at the first closing brace.
    expect(slotOf("foo{}{bar}")).toBe(crc16("foo{}{bar}") % 16_384)
    expect(slotOf("foo{{bar}}zap")).toBe(crc16("{bar") % 16_384)
  })

  it("L1 L2 every key of a user, and so of each script's call, is in one slot, whatever the user key holds", () => {
    const users = ["token:abc:def", "bot-7", "a}b", "{x}", "a{b", "x".repeat(200), "ключ"]
    for (const prefix of [RedisKeys.defaultPrefix, "staging/", "a{b}:"]) {
      for (const user of users) {
        const keys = RedisKeys.keysOf(prefix, user)
        const calls = [
          RedisScripts.readPermits(keys),
          RedisScripts.readCreations(keys),
          RedisScripts.blockUser(keys, 1)
        ]
        const slots = new Set([...Object.values(keys), ...calls.flatMap((call) => call.keys)].map(slotOf))
        expect([prefix, user, slots.size]).toEqual([prefix, user, 1])
      }
    }
    // Two users are not pinned to one slot: the tag is the user's, so users spread over the nodes.
    expect(slotOf(RedisKeys.keysOf("p:", "u1").inFlight)).not.toBe(slotOf(RedisKeys.keysOf("p:", "u2").inFlight))
  })

  it("a cluster URL gives its nodes and credentials; a server URL is left to the driver", () => {
    expect(RedisUrl.parse("redis+cluster://app:p%40ss@127.0.0.1:7000, 127.0.0.1:7001,[::1]:7002,cache")).toEqual({
      _tag: "Cluster",
      nodes: [
        { host: "127.0.0.1", port: 7000 },
        { host: "127.0.0.1", port: 7001 },
        { host: "::1", port: 7002 },
        { host: "cache", port: 6379 }
      ],
      username: "app",
      password: "p@ss",
      tls: false
    })
    expect(RedisUrl.parse("rediss+cluster://:secret@h:1/")).toEqual({
      _tag: "Cluster",
      nodes: [{ host: "h", port: 1 }],
      username: undefined,
      password: "secret",
      tls: true
    })
    expect(RedisUrl.parse("redis://:secret@h:1/2")).toEqual({ _tag: "Server", url: "redis://:secret@h:1/2" })
    expect(RedisUrl.parse("redis+cluster://h:1/0")._tag).toBe("Unreadable")
    expect(RedisUrl.parse("redis+cluster://h:1,,h:2")._tag).toBe("Unreadable")
    expect(RedisUrl.parse("redis+cluster://h:99999")._tag).toBe("Unreadable")
  })

  it("a cluster is named by its nodes, never its credentials, even when its URL cannot be read", () => {
    expect(RedisUrl.describeUrl("redis+cluster://app:secret@127.0.0.1:7000,[::1]:7001")).toBe(
      "redis+cluster://127.0.0.1:7000,[::1]:7001"
    )
    expect(RedisUrl.describeUrl("REDISS+CLUSTER://:secret@h:1")).toBe("rediss+cluster://h:1")
    expect(RedisUrl.describeUrl("redis://app:secret@h:1/3")).toBe("redis://h:1/3")
    // A URL without its `@` would put the password where a node goes: the reason names the place only.
    const unreadable = RedisUrl.parse("redis+cluster://app:secret,h:1")
    expect(JSON.stringify(unreadable)).not.toContain("secret")
    expect(RedisUrl.describeUrl("redis+cluster://app:secret,h:1")).toBe("redis cluster (an unreadable URL)")
    const scrub = RedisUrl.scrubber("redis+cluster://app:p%40ss@h:1,h:2")
    expect(scrub("WRONGPASS for p@ss and p%40ss")).toBe("WRONGPASS for *** and ***")
  })
})
