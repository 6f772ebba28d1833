/**
 * The client's metrics, scraped from a real Prometheus endpoint (the OpenTelemetry exporter through
 * `@effect/opentelemetry`, as `docs/client.md` shows it) while clients call the reference server in
 * process on the test clock: the names a user scrapes (Prometheus's conventions) and the series at
 * zero once a client is made, calls by operation and outcome, a retry after error 9 and one after
 * error 5, the server's refusal and the client's own quota refusal, the permit waits in seconds, the
 * aggregated gauges, and the per-user series with their bound and their eviction. The names are
 * written out here, as a user's dashboards and alerts write them: a rename fails this suite.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Operations from "@community-api/core/Operations"
import * as PacingRule from "@community-api/core/PacingRule"
import * as Prometheus from "../src/Prometheus.js"
import { assert, failedWith, scenario, succeeded, suite } from "../src/Scenario.js"

const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }
const quick = { retry: { delays: [100, 100, 100] } }

const calls = "community_api_client_calls_total"
const retries = "community_api_client_retries_total"
const refusals = "community_api_client_refusals_total"
const permitWait = "community_api_client_permit_wait_seconds"
const users = "community_api_client_users"
const permitsHeld = "community_api_client_permits_held"
const userPermitsHeld = "community_api_client_user_permits_held"

const client = "community_api_client_"

/** A series that is served, at zero. */
const atZero = (samples: ReadonlyArray<Prometheus.Sample>, name: string, labels: Record<string, string> = {}) => {
  assert.ok(Prometheus.serves(samples, name, labels), `${name} ${JSON.stringify(labels)} is served`)
  assert.equal(Prometheus.valueOf(samples, name, labels), 0)
}

export default suite("Metrics", [
  // First in the file: Effect 3's registry is the process's, and this scenario sees it as a new process does.
  scenario(
    "every counter's known series is served at zero once a client is made, under Prometheus's names",
    async (line) => {
      const port = await Prometheus.freePort()
      const world = await line.reference({ prometheusPort: port })
      await world.client({})
      const made = await Prometheus.scrape(port)

      // The families a scrape carries: the client's, the exporter's own, and the runtime's fiber
      // series, which docs/client.md describes (Effect 3 records them; Effect 4 only when asked).
      const families = [...new Set(made.map((sample) => sample.name.replace(/_(bucket|sum|count)$/, "")))]
      assert.deepEqual(
        families.filter((name) => name.startsWith(client)).sort(),
        [calls, permitWait, permitsHeld, refusals, retries, users].sort()
      )
      assert.deepEqual(
        families.filter((name) =>
          !name.startsWith(client) && name !== "target_info" && !name.startsWith("effect_fiber_")
        ),
        []
      )

      // Before any call: each operation's ok calls, each retry reason, each refusal, at zero.
      for (const operation of Operations.all) atZero(made, calls, { operation: operation.path, outcome: "ok" })
      for (const reason of ["5", "9", "101", "transport", "timeout"]) atZero(made, retries, { reason })
      for (const kind of ["rate", "minute", "day"]) atZero(made, refusals, { kind, source: "server" })
      for (const kind of ["minute", "day"]) atZero(made, refusals, { kind, source: "client" })
      // The permit wait in seconds: its buckets' bounds from a millisecond to 30 s.
      atZero(made, `${permitWait}_count`)
      assert.deepEqual(
        made.filter((sample) => sample.name === `${permitWait}_bucket`).map((sample) => sample.labels["le"]),
        ["0.001", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "30", "+Inf"]
      )
      atZero(made, permitsHeld)
      assert.ok(Prometheus.serves(made, users))
    }
  ),

  scenario("L1 L2 A6 calls, retries, refusals and permit waits reach a real Prometheus endpoint", async (line) => {
    const port = await Prometheus.freePort()
    const world = await line.reference({ prometheusPort: port })
    const client = await world.client({ ...quick, onCreationLimit: "fail" })
    // Another process's limiter for the same user: its request is the one the server refuses.
    const other = await world.client({ ...quick, limiters: "own" })
    const before = await Prometheus.scrape(port)
    const delta = (after: ReadonlyArray<Prometheus.Sample>, name: string, labels = {}) =>
      Prometheus.valueOf(after, name, labels) - Prometheus.valueOf(before, name, labels)

    // Error 9 once: retried, then answered.
    await world.server.setFaults({ keyServiceUnavailable: { next: 1 } })
    const first = client.call("users/me")
    await world.adjust(1_000)
    await succeeded(first)
    await world.server.clearFaults()
    await world.adjust(2_000)

    // 30 requests fill the window; the other limiter's request is refused with 5 and sent again.
    await Promise.all(Array.from({ length: 30 }, () => succeeded(client.call("users/me"))))
    const refused = other.call("users/me")
    await world.adjust(3_000)
    await succeeded(refused)

    // 20 creations fill the minute; the 21st is refused by the client's own quota, unsent.
    for (let i = 0; i < 20; i++) await succeeded(client.call("lists/create", { ...main, name: `metrics_${i}` }))
    assert.equal(
      await failedWith(client.call("lists/create", { ...main, name: "metrics_20" })),
      "CreationQuotaExceeded"
    )

    const after = await Prometheus.scrape(port)
    assert.equal(delta(after, calls, { operation: "users/me", outcome: "ok" }), 32)
    assert.equal(delta(after, calls, { operation: "lists/create", outcome: "ok" }), 20)
    assert.equal(delta(after, calls, { operation: "lists/create", outcome: "quota" }), 1)
    assert.equal(delta(after, retries, { reason: "9" }), 1)
    assert.equal(delta(after, retries, { reason: "5" }), 1)
    assert.equal(delta(after, refusals, { kind: "rate", source: "server" }), 1)
    assert.equal(delta(after, refusals, { kind: "minute", source: "client" }), 1)
    // A permit per attempt sent: 2 + 30 + 2 + 20; only the refused request's second attempt
    // waited, for the whole block after its refusal (a window and the margin), in seconds.
    assert.equal(delta(after, `${permitWait}_count`), 54)
    assert.equal(delta(after, `${permitWait}_bucket`, { le: "0.001" }), 53)
    const waited = (PacingRule.defaults.windowMillis + PacingRule.defaults.marginMillis) / 1_000
    assert.ok(Math.abs(delta(after, `${permitWait}_sum`) - waited) < 1e-9, `${waited} s waited`)
    // Nothing in flight: no permit held. No per-user series unless asked for.
    assert.equal(Prometheus.valueOf(after, permitsHeld), 0)
    assert.equal(after.some((sample) => sample.name === userPermitsHeld), false)
  }),

  scenario(
    "L1 per-user series only when asked for, at most their bound, and gone once the user is evicted",
    async (line) => {
      const port = await Prometheus.freePort()
      const world = await line.reference({ prometheusPort: port, metricsPerUser: 2 })
      const [alpha, beta, gamma] = await Promise.all(
        ["alpha", "beta", "gamma"].map((userKey) => world.client({ userKey }))
      )
      const usersBefore = Prometheus.valueOf(await Prometheus.scrape(port), users)
      // Each answer takes 100 ms: the calls hold their permits meanwhile.
      await world.server.setFaults({ latency: { fixed: 100 } })
      const inFlight = Promise.all([alpha!, alpha!, beta!, gamma!].map((client) => succeeded(client.call("users/me"))))
      await world.adjust(50)
      const during = await Prometheus.scrape(port)
      assert.equal(Prometheus.valueOf(during, userPermitsHeld, { user: "alpha" }), 2)
      assert.equal(Prometheus.valueOf(during, userPermitsHeld, { user: "beta" }), 1)
      // The bound is 2 users: the third has none, and is counted in the aggregated series only.
      assert.equal(during.some((sample) => sample.name === userPermitsHeld && sample.labels["user"] === "gamma"), false)
      assert.equal(Prometheus.valueOf(during, permitsHeld), 4)
      assert.equal(Prometheus.valueOf(during, users) - usersBefore, 3)
      await world.adjust(100)
      await inFlight

      // Idle past a window and the margin: the users leave memory, and their series with them.
      await world.adjust(3_000)
      const idle = await Prometheus.scrape(port)
      assert.equal(idle.some((sample) => sample.name === userPermitsHeld), false)
      assert.equal(Prometheus.valueOf(idle, users) - usersBefore, 0)

      // A place freed: the third user now has its series.
      const again = gamma!.call("users/me")
      await world.adjust(50)
      assert.equal(Prometheus.valueOf(await Prometheus.scrape(port), userPermitsHeld, { user: "gamma" }), 1)
      await world.adjust(100)
      await succeeded(again)
    }
  )
])
