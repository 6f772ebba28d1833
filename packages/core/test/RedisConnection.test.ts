/**
 * How either line's Redis store connects and what its failures say: the client made for a URL, the
 * waits, and reasons that never hold the password. The connection itself is tested against a real
 * Redis (and a cluster) by the clients' suites.
 */
import { describe, expect, it } from "vitest"
import * as RedisConnection from "../src/RedisConnection.js"
import type * as RedisScripts from "../src/RedisScripts.js"

/** A driver whose clients are in `status`; each script sends its first key to `sent`, failing for "down". */
const driver = (status: string, sent: Array<string> = []): RedisConnection.Driver => {
  class Fake implements RedisConnection.DriverClient {
    status = status
    on() {}
    defineCommand(name: string) {
      Object.assign(this, {
        [name]: (key: string) => {
          sent.push(key)
          return key === "down"
            ? Promise.reject(new Error("ERR down for redis://:s3cret@localhost:6379"))
            : Promise.resolve([1])
        }
      })
    }
    connect() {
      return Promise.resolve()
    }
    ping() {
      return Promise.resolve("PONG")
    }
    quit() {
      return Promise.resolve()
    }
    disconnect() {}
  }
  return { Redis: Fake, Cluster: Fake }
}

describe("RedisConnection", () => {
  it("L1 one server: its URL read by the driver, a command failing at once while disconnected, reconnecting ever slower up to 2 s", () => {
    const connection = RedisConnection.make("redis://:s3cret@cache:6380/2", 1_000)
    expect(connection.store).toBe("redis://cache:6380/2")
    const client = connection.client
    if (client._tag !== "Server") throw new Error(client._tag)
    expect(client.url).toBe("redis://:s3cret@cache:6380/2")
    expect(client.options).toEqual({
      enableOfflineQueue: false,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      connectTimeout: 1_000,
      retryStrategy: client.options.retryStrategy
    })
    expect([1, 5, 30].map(client.options.retryStrategy)).toEqual([100, 500, 2_000])
    expect(connection.errorEvents).toEqual(["error"])
    // Waited for until it connects or fails (the driver's connect timeout).
    expect(connection.connectWaitMillis).toBeUndefined()
    expect(connection.quitWaitMillis).toBe(1_000)
    expect(connection.callTimeoutMillis).toBe(1_000)
  })

  it("L1 a cluster: its nodes, the credentials and TLS on every node, no retry of a command whose master went away", () => {
    const connection = RedisConnection.make("rediss+cluster://app:s3cret@a:7000,b:7001", 500)
    expect(connection.store).toBe("rediss+cluster://a:7000,b:7001")
    const client = connection.client
    if (client._tag !== "Cluster") throw new Error(client._tag)
    expect(client.nodes).toEqual([{ host: "a", port: 7000 }, { host: "b", port: 7001 }])
    expect(client.options).toEqual({
      enableOfflineQueue: false,
      lazyConnect: true,
      clusterRetryStrategy: client.options.clusterRetryStrategy,
      retryDelayOnFailover: 0,
      retryDelayOnClusterDown: 0,
      slotsRefreshTimeout: 500,
      // Each node connects with the timeouts and the credentials.
      redisOptions: { maxRetriesPerRequest: 0, connectTimeout: 500, username: "app", password: "s3cret", tls: {} }
    })
    expect(client.options.clusterRetryStrategy(3)).toBe(300)
    expect(connection.errorEvents).toEqual(["error", "node error"])
    // A node's answer, its slots' and its state's.
    expect(connection.connectWaitMillis).toBe(1_500)
    expect("tls" in RedisConnection.make("redis+cluster://a:7000", 500).client).toBe(false)
  })

  it("L1 a cluster URL that cannot be read makes no client: every call fails with why, without the password", () => {
    const connection = RedisConnection.make("redis+cluster://:s3cret@a:7000/0", 1_000)
    expect(connection.client).toEqual({
      _tag: "Unreadable",
      reason: "a cluster URL names nodes only: a cluster has no database or options in it"
    })
  })

  it("L1 a call is refused at once until the client is ready, with the last connection error, scrubbed", () => {
    const connection = RedisConnection.make("redis://:s3cret@cache:6379", 1_000)
    expect(connection.refusal("ready")).toBeUndefined()
    expect(connection.refusal("connecting")).toBe("not connected yet (connection connecting)")
    connection.noteError(new Error("WRONGPASS invalid password s3cret"))
    expect(connection.refusal("reconnecting")).toBe("WRONGPASS invalid password *** (connection reconnecting)")
    expect(connection.failure(new Error("ERR s3cret"))).toBe("ERR ***")
    expect(connection.failure("closed")).toBe("closed")
    expect(connection.timedOut).toBe("no answer within 1000 ms")
  })

  it("L1 once the client was ready, a refusal says the connection was lost, with the error that ended it", () => {
    const connection = RedisConnection.make("redis://:s3cret@cache:6379", 1_000)
    connection.noteReady()
    expect(connection.refusal("reconnecting")).toBe("connection lost (connection reconnecting)")
    connection.noteError(new Error("connect ECONNREFUSED 10.0.0.1:6379 s3cret"))
    expect(connection.refusal("reconnecting")).toBe(
      "connection lost: connect ECONNREFUSED 10.0.0.1:6379 *** (connection reconnecting)"
    )
  })

  it("L1 a call in flight when the connection drops fails as the connection lost, not in the driver's words", () => {
    const connection = RedisConnection.make("redis://:s3cret@cache:6379", 1_000)
    connection.noteReady()
    const inFlight = Object.assign(
      new Error(
        "Reached the max retries per request limit (which is 0). Refer to \"maxRetriesPerRequest\" option for details."
      ),
      { name: "MaxRetriesPerRequestError" }
    )
    expect(connection.failure(inFlight)).toBe("connection lost before the answer")
    connection.noteError(new Error("read ECONNRESET s3cret"))
    expect(connection.failure(inFlight)).toBe("connection lost before the answer: read ECONNRESET ***")
  })

  it("a failed SELECT of the URL's database refuses every call, ready or not: no call runs on database 0", () => {
    const connection = RedisConnection.make("redis://:s3cret@cache:6379/99", 1_000)
    connection.noteError(Object.assign(new Error("ERR DB index is out of range"), {
      command: { name: "select", args: ["99"] }
    }))
    const reason = "database 99 of the URL cannot be selected: ERR DB index is out of range"
    expect(connection.refusal("ready")).toBe(reason)
    expect(connection.refusal("reconnecting")).toBe(reason)
  })

  it("L1 the client is made with the driver's class for the URL, the scripts defined and its errors noted", async () => {
    const made: Array<unknown> = []
    const sent: Array<ReadonlyArray<string | number>> = []
    class Fake implements RedisConnection.DriverClient {
      status = "ready"
      readonly listeners = new Map<string, (error: Error) => void>()
      readonly defined: Array<string> = []
      constructor(...args: ReadonlyArray<unknown>) {
        made.push(args)
        return this
      }
      on(event: string, listener: (error: Error) => void) {
        this.listeners.set(event, listener)
      }
      defineCommand(name: string) {
        this.defined.push(name)
        ;(this as unknown as Record<string, unknown>)[name] = (...args: ReadonlyArray<string | number>) => {
          sent.push([name, ...args])
          return Promise.resolve([1, 2])
        }
      }
      connect() {
        return Promise.reject(new Error("refused"))
      }
      ping() {
        return Promise.resolve("PONG")
      }
      quit() {
        return Promise.reject(new Error("stalled"))
      }
      disconnect() {
        this.status = "end"
      }
    }
    const connection = RedisConnection.make("redis+cluster://:s3cret@a:7000", 1_000)
    const open = RedisConnection.open({ Redis: Fake, Cluster: Fake }, connection)
    if (typeof open === "string") throw new Error(open)
    expect(made).toEqual([[[{ host: "a", port: 7000 }], (connection.client as { options: unknown }).options]])
    expect(await open.send({ script: "communityApiBlockUser", keys: ["k"], args: [5] })).toEqual([1, 2])
    expect(sent).toEqual([["communityApiBlockUser", "k", 5]])
    // Neither the first connection nor the QUIT rejects: a QUIT that fails closes the connection.
    await open.connect()
    await open.quit()
    expect(open.status()).toBe("end")
    expect(RedisConnection.open({ Redis: Fake, Cluster: Fake }, RedisConnection.make("redis+cluster://a:x", 1_000)))
      .toBe("node 1 of the cluster URL is not host:port")
  })

  it("L1 a link refuses a call while its client is not ready, and every call of a URL that cannot be read, with why", async () => {
    const connection = RedisConnection.make("redis://:s3cret@localhost:6379", 1_000)
    expect(RedisConnection.link(driver("ready"), connection).refusal()).toBeUndefined()
    expect(RedisConnection.link(driver("connecting"), connection).refusal()).toBe(
      "not connected yet (connection connecting)"
    )
    const unreadable = RedisConnection.link(driver("ready"), RedisConnection.make("redis+cluster://:s3cret@a:x", 1_000))
    expect(unreadable.refusal()).toBe("node 1 of the cluster URL is not host:port")
    await unreadable.connect()
    await unreadable.quit()
    unreadable.disconnect()
  })

  it("L1 a link's request: Redis's reply, or rejected with why, refused before it is sent or failed in words a person reads", async () => {
    const sent: Array<string> = []
    const call = (key: string): RedisScripts.Call => ({ script: "communityApiTakePermits", keys: [key], args: [] })
    const connection = RedisConnection.make("redis://:s3cret@localhost:6379", 1_000)
    const link = RedisConnection.link(driver("ready", sent), connection)
    await expect(link.request(call("up"))).resolves.toEqual([1])
    await expect(link.request(call("down"))).rejects.toBe("ERR down for redis://:***@localhost:6379")
    const unreadable = RedisConnection.link(driver("ready", sent), RedisConnection.make("redis+cluster://a:x", 1_000))
    await expect(unreadable.request(call("never"))).rejects.toBe("node 1 of the cluster URL is not host:port")
    expect(sent).toEqual(["up", "down"])
  })
})
