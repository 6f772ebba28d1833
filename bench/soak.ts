/**
 * Soak run of the sandbox: the reference server with the demo fixture on a loopback port, driven for
 * 60 seconds by keep-alive workers in this process (every demo token and unknown ones, reads, writes,
 * creations and bad requests), with memory sampled at the start (after a warm-up) and at the end.
 * The request log and the counters of the server are bounded, so its memory must stay flat: the run
 * exits non-zero when the heap, measured after a full garbage collection, grows by more than the bound.
 *
 * ```sh
 * npx -y pnpm@10 soak                         # 60 s
 * SOAK_SECONDS=10 npx -y pnpm@10 soak         # shorter, for a quick look
 * ```
 *
 * Not part of the test run. Only 127.0.0.1 is ever contacted.
 */
import { Operations } from "@community-api/schema"
import { DemoFixture, ReferenceServer, SeededRandom } from "@community-api/server"
import { HttpServer } from "@effect/platform"
import { Context, Effect, Exit, Layer, Scope } from "effect"
import * as v8 from "node:v8"
import * as vm from "node:vm"

const seconds = Number(process.env.SOAK_SECONDS ?? 60)
const warmUpSeconds = Math.min(5, Math.max(1, Math.floor(seconds / 10)))
const workers = 8
/** Allowed heap growth between the two samples, after a full collection. */
const heapBoundMiB = 16
const MiB = 1024 * 1024

// A full collection before each sample, with or without `--expose-gc`.
v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc") as () => void

interface Sample {
  readonly rss: number
  readonly heapUsed: number
  readonly external: number
}

const sample = (): Sample => {
  gc()
  gc()
  const usage = process.memoryUsage()
  return { rss: usage.rss, heapUsed: usage.heapUsed, external: usage.external }
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`

interface Shot {
  readonly path: string
  readonly method?: string
  readonly body?: string
  readonly contentType?: string
}

const { mainCommunity: main, tokens } = DemoFixture
const json = (path: string, params: Record<string, unknown>): Shot => ({
  path: `v2/${path}`,
  body: JSON.stringify(params),
  contentType: "application/json"
})
let serial = 0

/** What a worker sends next: mostly well-formed calls of the contract's operations, some bad requests. */
const shots: ReadonlyArray<readonly [weight: number, make: (next: () => number) => Shot]> = [
  [6, () => json(Operations.users.me.path, {})],
  [4, () => json(Operations.groups.get.path, { count: 20 })],
  [4, (next) => json(Operations.bots.get.path, { ...main, count: 50, offset: Math.floor(next() * 600) })],
  [3, () => json(Operations.bots.getById.path, { bot_id: DemoFixture.activeBotId })],
  [3, () => json(Operations.mailings.get.path, main)],
  [3, () => json(Operations.vars.list.path, main)],
  [2, () => json(Operations.globalVars.list.path, main)],
  [2, () => json(Operations.landings.get.path, main)],
  [2, () => json(Operations.contacts.getBots.path, { ...main, uid: DemoFixture.subscriberUid })],
  [2, () => json(Operations.vars.get.path, { var_id: DemoFixture.variableId, uid: DemoFixture.subscriberUid })],
  [2, (next) =>
    json(next() < 0.5 ? Operations.bots.enable.path : Operations.bots.disable.path, {
      bot_id: DemoFixture.enableableBotId
    })],
  [2, (next) =>
    json(Operations.lists.addUser.path, {
      list_id: DemoFixture.listId,
      uid: DemoFixture.subscriberUid + Math.floor(next() * DemoFixture.mainSubscriberCount)
    })],
  // Creations: refused with 5 once a user's minute (20) or day (200) is used up, so the store stays bounded.
  [2, () => json(Operations.vars.create.path, { ...main, title: "Нагрузка", name: `soak_${++serial}` })],
  // Bad requests.
  [1, () => ({ path: `v2/${Operations.bots.get.path}`, body: "{\"group_id\": ", contentType: "application/json" })],
  [1, () => json(Operations.bots.get.path, { ...main, _reserved: 1 })],
  [1, () => json(Operations.vars.create.path, { ...main, title: "t", name: "bad.name" })],
  [1, () => ({ path: `v2/${Operations.users.me.path}`, method: "GET" })],
  [1, () => ({ path: "v2/nosuch/section", body: "{}", contentType: "application/json" })],
  [1, () => ({ path: `v3/${Operations.users.me.path}`, body: "{}", contentType: "application/json" })],
  [1, () => ({ path: `v2/${Operations.users.me.path}`, body: "<a/>", contentType: "application/xml" })],
  [1, () => ({ path: `v2/${Operations.users.me.path}?api_key=${tokens.expired}` })],
  [1, () => ({ path: `v2/${Operations.vars.list.path}`, body: `{"title":"${"x".repeat(200_000)}"}` })]
]
const totalWeight = shots.reduce((sum, [weight]) => sum + weight, 0)

const pick = (next: () => number) => {
  let roll = next() * totalWeight
  for (const [weight, make] of shots) {
    roll -= weight
    if (roll < 0) return make(next)
  }
  return shots[0]![1](next)
}

// Every demo credential, weighted towards those that get past authentication, and unknown ones.
const credentials = [
  ...Object.values(tokens),
  tokens.owner,
  tokens.admin,
  tokens.mailer,
  tokens.users,
  "thp_unknown_soak_token_000000000000"
]

interface Tally {
  requests: number
  ok: number
  errors: Map<number, number>
  failures: number
}

const worker = async (base: string, seed: number, until: () => boolean, tally: Tally) => {
  // Seeded, so that a run is repeatable in what it sends.
  const next = SeededRandom.make(seed)
  while (!until()) {
    const shot = pick(next)
    const token = credentials[Math.floor(next() * credentials.length)]!
    const headers: Record<string, string> = {}
    if (!shot.path.includes("api_key=")) headers.authorization = `Bearer ${token}`
    if (shot.contentType !== undefined) headers["content-type"] = shot.contentType
    try {
      const response = await fetch(`${base}/${shot.path}`, {
        method: shot.method ?? "POST",
        headers,
        ...(shot.body === undefined ? {} : { body: shot.body })
      })
      const answer = (await response.json()) as { status?: string; error_code?: number }
      tally.requests++
      if (answer.status === "ok") tally.ok++
      else tally.errors.set(answer.error_code ?? -1, (tally.errors.get(answer.error_code ?? -1) ?? 0) + 1)
    } catch {
      tally.failures++
    }
  }
}

const line = (label: string, at: Sample, tally: Tally, elapsed: number) =>
  console.log(
    `${label.padEnd(7)} t=${String(Math.round(elapsed)).padStart(3)}s  rss ${mib(at.rss).padStart(10)}  heapUsed ${
      mib(at.heapUsed).padStart(10)
    }  external ${mib(at.external).padStart(9)}  requests ${tally.requests}`
  )

const run = async () => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(ReferenceServer.layerServe({ port: 0 }), scope))
  const address = Context.get(context, HttpServer.HttpServer).address
  if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
  const base = `http://127.0.0.1:${address.port}/external-api`
  const server = Context.get(context, ReferenceServer.ReferenceServer)
  const tally: Tally = { requests: 0, ok: 0, errors: new Map(), failures: 0 }

  console.log(
    `soak: ${seconds} s of loopback load on ${base}, ${workers} keep-alive workers (+${warmUpSeconds} s warm-up)`
  )

  const started = Date.now()
  const end = started + (warmUpSeconds + seconds) * 1000
  const running = Array.from({ length: workers }, (_, i) => worker(base, 1000 + i, () => Date.now() >= end, tally))

  await new Promise((resolve) => setTimeout(resolve, warmUpSeconds * 1000))
  const first = sample()
  const firstRequests = tally.requests
  line("start", first, tally, 0)
  const timer = setInterval(() => line("", sample(), tally, (Date.now() - started) / 1000 - warmUpSeconds), 10_000)
  await Promise.all(running)
  clearInterval(timer)
  const last = sample()
  line("end", last, tally, (Date.now() - started) / 1000 - warmUpSeconds)

  const log = await Effect.runPromise(server.recentRequests)
  const count = await Effect.runPromise(server.requestCount)
  await Effect.runPromise(Scope.close(scope, Exit.void))

  const growth = last.heapUsed - first.heapUsed
  const rate = (tally.requests - firstRequests) / seconds
  const codes = [...tally.errors].sort((a, b) => a[0] - b[0]).map(([code, n]) => `${code}:${n}`).join(" ")
  const flat = growth <= heapBoundMiB * MiB && log.length <= 1000 && tally.failures === 0

  console.log(
    [
      `requests ${tally.requests} (${rate.toFixed(0)}/s measured), ok ${tally.ok}, errors by code ${codes}, ` +
      `transport failures ${tally.failures}`,
      `server: ${count} requests answered, request log holds ${log.length} (bound 1000)`,
      `heap growth ${growth >= 0 ? "+" : ""}${mib(growth)} (bound +${heapBoundMiB} MiB), rss ${
        last.rss >= first.rss ? "+" : ""
      }${mib(last.rss - first.rss)}`,
      `verdict: ${flat ? "FLAT (pass)" : "GREW or FAILED (fail)"}`
    ].join("\n")
  )
  process.exitCode = flat ? 0 : 1
}

run().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
