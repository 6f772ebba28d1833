/**
 * Pacing (L1): one user's requests, from any number of fibers and clients of one process, reach the
 * server at most 30 in any window, however slow the server and the network; different users are paced
 * apart; a permit comes back a window plus the margin after its answer, a whole window after error 5,
 * and an interrupted call gives back only what it took.
 */
import type { Call, Received, Reply } from "../src/Driver.js"
import { assert, error, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

/** A strict server: error 5 when more than 30 requests of one token arrived in the last 1000 ms (both ends counted). */
const strictServer = () => {
  const arrivals: Array<{ readonly at: number; readonly who: string | undefined }> = []
  const server = {
    rejected: 0,
    script: (request: Received): Reply => {
      arrivals.push({ at: request.at, who: request.authorization })
      const inWindow = arrivals.filter((a) => a.who === request.authorization && a.at >= request.at - 1000).length
      if (inWindow > 30) server.rejected++
      return inWindow > 30 ? error(5) : ok(me)
    }
  }
  return server
}

/**
 * A strict server behind a slow network: each request waits 0–300 ms (seeded) before the server counts
 * it, and as long again before its answer is back.
 */
const slowStrictServer = (seed: number) => {
  let state = seed
  const delay = () => {
    state = (state * 1103515245 + 12345) % 2147483648
    return state % 301
  }
  const arrivals: Array<number> = []
  const server = {
    arrivals,
    rejected: 0,
    script: (): Reply =>
      wait(delay(), (now) => {
        arrivals.push(now)
        const inWindow = arrivals.filter((at) => at > now - 1000).length
        if (inWindow > 30) server.rejected++
        return wait(delay(), inWindow > 30 ? error(5) : ok(me))
      })
  }
  return server
}

/** Every call ended with success. */
const allSucceeded = <A>(calls: ReadonlyArray<Call<A>>) => Promise.all(calls.map((call) => succeeded(call)))

export default suite("Pacing", [
  scenario(
    "L1 300 requests from 6 fibers and two clients of one user: zero error 5, within the minimum time plus a window",
    async (line) => {
      const server = strictServer()
      const world = await line.scripted(server.script)
      const clients = [await world.client(), await world.client()]
      // 6 fibers of 50 calls at once, each fiber on the client of its parity.
      const calls = Array.from({ length: 300 }, (_, i) => clients[Math.floor(i / 50) % 2]!.call("users/me"))
      await world.adjust(30_000)
      await allSucceeded(calls)
      const times = world.received.map((r) => r.at)
      assert.equal(times.length, 300)
      assert.equal(server.rejected, 0)
      // 300 requests at 30 per window: the last ones go out 9 windows after the first, at least.
      assert.ok(Math.max(...times) >= 9000)
      assert.ok(Math.max(...times) <= 9000 + 1000)
    }
  ),

  scenario("L1 clients with different tokens but one userKey share one limiter", async (line) => {
    const world = await line.scripted(() => ok(me))
    const a = await world.client({ token: "thp_first", userKey: "user-1" })
    const b = await world.client({ token: "thp_second", userKey: "user-1" })
    const calls = Array.from({ length: 90 }, (_, i) => (i % 2 === 0 ? a : b).call("users/me"))
    await world.adjust(10_000)
    await allSucceeded(calls)
    assert.equal(world.received.filter((r) => r.at < 1020).length, 30)
    assert.equal(world.received.filter((r) => r.at < 2040).length, 60)
  }),

  scenario("L1 different users are paced apart", async (line) => {
    const server = strictServer()
    const world = await line.scripted(server.script)
    const a = await world.client({ token: "thp_a" })
    const b = await world.client({ token: "thp_b" })
    const calls = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).call("users/me"))
    await world.adjust(1)
    await allSucceeded(calls)
    // 30 each, all at once.
    assert.equal(world.received.filter((r) => r.at === 0).length, 60)
    assert.equal(server.rejected, 0)
  }),

  scenario(
    "L1 a server that counts arrivals strictly sees at most 30 in any window, however slow it and the network are",
    async (line) => {
      const server = slowStrictServer(20261121)
      const world = await line.scripted(server.script)
      const client = await world.client()
      // 16 fibers, each 15 calls one after another.
      const loops = Array.from({ length: 16 }, () => client.serial("users/me", { times: 15 }))
      await world.adjust(60_000)
      for (const ended of await allSucceeded(loops)) {
        for (const one of ended) assert.equal(one._tag, "Success")
      }
      assert.equal(server.arrivals.length, 240)
      assert.equal(server.rejected, 0)
      const sorted = [...server.arrivals].sort((a, b) => a - b)
      sorted.forEach((at, i) => {
        if (i >= 30) assert.ok(at - sorted[i - 30]! > 1000, `arrival ${i} at ${at}`)
      })
    }
  ),

  scenario("L1 a permit comes back a window plus the margin after the answer, not after the send", async (line) => {
    const world = await line.scripted((_, i) => i === 0 ? wait(500, ok(me)) : ok(me), { pacingLimit: 1 })
    const client = await world.client()
    const first = client.call("users/me")
    await world.adjust(1)
    const second = client.call("users/me")
    // To the first's answer, then on: the answer is read before the clock moves past it.
    await world.adjust(499)
    await world.adjust(2500)
    await allSucceeded([first, second])
    assert.deepEqual(world.received.map((r) => r.at), [0, 500 + 1000 + 20])
  }),

  scenario("L1 after a penalty the next request waits a whole window", async (line) => {
    // Error 5 on an ordinary request: the pacing is penalized, and the request is sent again.
    const world = await line.scripted((_, i) => i === 0 ? error(5) : ok(me))
    const client = await world.client()
    const call = client.call("users/me")
    await world.adjust(2000)
    await succeeded(call)
    assert.deepEqual(world.received.map((r) => r.at), [0, 1020])
  }),

  scenario(
    "L1 an interrupted wait takes no permit; an interrupted send keeps its permit for the whole hold",
    async (line) => {
      const world = await line.scripted((_, i) => i < 2 ? wait(5000, ok(me)) : ok(me), { pacingLimit: 2 })
      const client = await world.client()
      const slow = client.call("users/me")
      client.call("users/me")
      await world.adjust(1)
      const waiting = client.call("users/me")
      await world.adjust(1)
      await waiting.interrupt()
      // Interrupted in flight at 2 ms: its permit comes back at 2 + 1020.
      await slow.interrupt()
      const first = client.call("users/me")
      const second = client.call("users/me")
      await world.adjust(10_000)
      await allSucceeded([first, second])
      // The interrupted wait was never sent. A permit leaked by it would hold the second until the other
      // send ends (6020).
      assert.deepEqual(world.received.map((r) => r.at), [0, 0, 1022, 1022 + 1020])
    }
  ),

  scenario("L1 permits freed together come back together, and the gate keeps working after it idles", async (line) => {
    const world = await line.scripted(() => ok(me), { pacingLimit: 3 })
    const client = await world.client()
    const burst = () => allSucceeded(Array.from({ length: 6 }, () => client.call("users/me")))
    const first = burst()
    await world.adjust(5000)
    await first
    assert.deepEqual(world.received.map((r) => r.at), [0, 0, 0, 1020, 1020, 1020])
    const again = burst()
    await world.adjust(5000)
    await again
    assert.deepEqual(world.received.slice(6).map((r) => r.at), [5000, 5000, 5000, 6020, 6020, 6020])
  })
])
