/**
 * B9 the client at scale (`pnpm bench B9`, or `pnpm bench scale`): one client process acting for many
 * users against the sandbox on a loopback port, the server holding a generated fixture of 10,000 users.
 *
 * The client process (`internal/B9Client.ts`, with `--expose-gc`, on the newest Node line over undici's
 * dispatcher unless `BENCH_B9_NODE=machine` or `BENCH_B9_HTTP=fetch`) makes one client per user's token,
 * all on one shared `Pacing` over one memory `PermitStore` (and one `CreationQuota` over one memory
 * `CountStore`); the reference server runs in a process of its own, so that the client process's CPU
 * and heap are the client's alone. After an unmeasured warm-up:
 * - (a) 1, 10 and 50 users each saturate their 30 requests a second: 16 fibers per user call `users/me`
 *   in a loop for 15 s;
 * - (b) 10,000 users each call `users/me` once every 10 s, their phases spread evenly (1,000 calls a
 *   second in all), for 30 s (three calls each), with the heap read after full collections before they
 *   start, twice while they call and once all are idle again, with how many users the memory stores
 *   hold state for at each reading.
 * Ok answers and errors 5 come from the server's own request log (retries included); the client's CPU
 * per call is `process.cpuUsage()` of the client process over the point (less the collections of the
 * readings) over the calls answered ok.
 *
 * Beside them, the stall part (`internal/B9Stall.ts`): two processes of one user on a real Redis,
 * saturating, the redis-server stopped for 2 s; the ok answers in each second after it.
 *
 * `BENCH_B9_POINTS=stall` (or `scale`, or both, comma-separated; default both) runs only those parts,
 * for a trial; `BENCH_B9_USERS` sets the users of (b) (default 10,000, at most the fixture's), for a short trial;
 * `BENCH_B9_PROFILE=<folder>` writes a CPU profile of the client process during (b) there (a diagnostic
 * run: the profiler weighs on the figures) and puts its summary in the figures.
 */
import { Duration, Effect } from "effect"
import type { Scope } from "effect"
import { execFileSync, fork } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import type { Command, Message, Setup, Tally, Transport } from "./internal/B9Client.js"
import * as B9Stall from "./internal/B9Stall.js"
import * as BenchFixture from "./internal/BenchFixture.js"
import * as Lines from "./internal/Lines.js"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { round } from "./internal/Stats.js"

/** Users in the server's fixture. */
const fixtureUsers = 10_000
/** Users of (a), each saturating its limit. */
const saturatingUsers = [1, 10, 50] as const
const fibersPerUser = 16
const saturateSeconds = 15
/** Unmeasured, so that (a) at one user runs on code already optimised, as the later points do. */
const warmUp = { users: 50, seconds: 5 } as const
/** (b): each user once per period, for three periods. */
const periodSeconds = 10
const spreadSeconds = 30
/** (b): calls in flight at once, at most (see `B9Client`); (a) has at most 50 × 16 = 800. */
const maxInFlight = 128
const limitPerUser = 30
/**
 * Quiet before (b)'s first heap reading and after its last answer: the keep-alive sockets of the points
 * before have closed (undici keeps an idle one 4 s) and every permit has come back (a window after its
 * answer), so that both readings hold the same things.
 */
const quietMillis = 6000
const goals = { rate: 0.97, cpuVersusOneUser: 1.2, heapAfterIdle: 1.1 } as const

const usersOfSpread = (): number => {
  const asked = Number(process.env["BENCH_B9_USERS"] ?? fixtureUsers)
  return Number.isInteger(asked) && asked >= 1 ? Math.min(asked, fixtureUsers) : fixtureUsers
}

type Reply<T extends Message["_tag"]> = Extract<Message, { readonly _tag: T }>
type Ready = Reply<"ready">

/** The client process, ready: what it said, and how to ask it. */
interface Client {
  readonly ready: Ready
  readonly saturate: (command: Extract<Command, { command: "saturate" }>) => Promise<Reply<"saturated">>
  readonly spread: (command: Extract<Command, { command: "spread" }>) => Promise<Reply<"spread">>
}

/** Starts the client process with its tokens for the scope; resolves once its clients are made. */
const spawnClient = (setup: Setup, execPath: string): Effect.Effect<Client, Error, Scope.Scope> =>
  Effect.flatMap(
    Effect.acquireRelease(
      Effect.sync(() =>
        fork(fileURLToPath(new URL("./internal/B9Client.ts", import.meta.url)), [], {
          execPath,
          execArgv: ["--expose-gc", "--import", import.meta.resolve("tsx")],
          stdio: ["ignore", "inherit", "inherit", "ipc"]
        })
      ),
      (child) => Effect.sync(() => child.kill())
    ),
    (child) =>
      Effect.async<Client, Error>((resume) => {
        const waiting = new Map<number, { resolve: (message: Message) => void; reject: (error: Error) => void }>()
        const ask = <M extends Message>(command: Command) =>
          new Promise<M>((resolve, reject) => {
            waiting.set(command.id, { resolve: resolve as (message: Message) => void, reject })
            child.send(command)
          })
        child.on("message", (message: Message) => {
          if (message._tag === "ready") {
            resume(Effect.succeed({
              ready: message,
              saturate: (command) => ask<Reply<"saturated">>(command),
              spread: (command) => ask<Reply<"spread">>(command)
            }))
          } else {
            waiting.get(message.id)?.resolve(message)
            waiting.delete(message.id)
          }
        })
        child.once("exit", (code) => {
          const error = new Error(`the B9 client process exited with ${code}`)
          resume(Effect.fail(error))
          for (const { reject } of waiting.values()) reject(error)
          waiting.clear()
        })
        child.send(setup)
      })
  )

/** What one point of (a) did. */
interface Saturated {
  readonly users: number
  readonly okPerSecond: number
  readonly error5: number
  readonly tally: Tally
  readonly cpuMicrosPerCall: number
}

/** What (b) did. */
interface Spread {
  readonly users: number
  readonly demand: number
  /** Calls answered ok: the smaller of the server's count (in the window) and the client's. */
  readonly delivered: number
  readonly serverOk: number
  readonly error5: number
  readonly okPerSecondMin: number
  readonly okPerSecondMax: number
  readonly reply: Reply<"spread">
  readonly cpuMicrosPerCall: number
}

/** The server back to its fixture and a window's wait, so that no point sees the last one's requests. */
const fresh = (server: Servers.Spawned) => Effect.zipRight(server.reset, Effect.sleep("1100 millis"))

const saturate = (
  server: Servers.Spawned,
  client: Client,
  users: number,
  seconds: number,
  id: number
): Effect.Effect<Saturated, unknown> =>
  Effect.gen(function*() {
    yield* fresh(server)
    yield* server.startRecording
    const startAt = Servers.now() + 300
    const reply = yield* Effect.tryPromise(() =>
      client.saturate({ id, command: "saturate", users, fibers: fibersPerUser, startAt, millis: seconds * 1000 })
    )
    const entries = (yield* server.stopRecording).filter((e) => e.at >= startAt && e.at < startAt + seconds * 1000)
    return {
      users,
      okPerSecond: entries.filter((e) => e.outcome === "ok").length / seconds,
      error5: entries.filter((e) => e.outcome === 5).length,
      tally: reply.tally,
      cpuMicrosPerCall: reply.cpuMicros / Math.max(1, reply.tally.ok)
    }
  })

const spread = (
  server: Servers.Spawned,
  client: Client,
  users: number,
  id: number,
  profileFile: string | undefined
): Effect.Effect<Spread, unknown> =>
  Effect.gen(function*() {
    const millis = spreadSeconds * 1000
    yield* fresh(server)
    yield* Effect.sleep(Duration.millis(quietMillis))
    yield* server.startRecording
    // Time for the reading before they start (a full collection).
    const startAt = Servers.now() + 1500
    const reply = yield* Effect.tryPromise(() =>
      client.spread({
        id,
        command: "spread",
        users,
        periodMillis: periodSeconds * 1000,
        startAt,
        millis,
        maxInFlight,
        readingsAt: [millis / 3, (2 * millis) / 3],
        idleMillis: quietMillis,
        profileFile
      })
    )
    // An answer due in the last moment of the 30 s may come a little after it: a window of grace.
    const entries = (yield* server.stopRecording).filter((e) => e.at >= startAt && e.at < startAt + millis + 1000)
    const ok = entries.filter((e) => e.outcome === "ok").map((e) => e.at - startAt)
    const perSecond = Array.from(
      { length: spreadSeconds },
      (_, s) => ok.filter((t) => t >= s * 1000 && t < (s + 1) * 1000).length
    )
    return {
      users,
      demand: reply.calls,
      delivered: Math.min(ok.length, reply.tally.ok),
      serverOk: ok.length,
      error5: entries.filter((e) => e.outcome === 5).length,
      okPerSecondMin: Math.min(...perSecond),
      okPerSecondMax: Math.max(...perSecond),
      reply,
      cpuMicrosPerCall: reply.cpuMicros / Math.max(1, reply.tally.ok)
    }
  })

const failuresText = (tally: Tally) =>
  Object.entries(tally.failures).map(([tag, count]) => `${count} ${tag}`).join(", ") || "none"

const mean = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length)

/**
 * The client process's Node and transport: the newest maintained line (users run 22 to 26; this
 * machine's own Node is past its end of life) and undici's dispatcher, which costs a quarter of what
 * `fetch` costs per call (`docs/client.md`, sizing); `BENCH_B9_NODE=machine` and `BENCH_B9_HTTP=fetch`
 * choose the others.
 */
const clientSetup: Effect.Effect<{ readonly execPath: string; readonly transport: Transport }, unknown> = Effect.gen(
  function*() {
    const execPath = process.env["BENCH_B9_NODE"] === "machine"
      ? process.execPath
      : yield* Effect.tryPromise(() => Lines.newestNode())
    const transport: Transport = process.env["BENCH_B9_HTTP"] === "fetch" ? "fetch" : "undici"
    return { execPath, transport }
  }
)

/** The scale points, (a) and (b). */
const scale: Effect.Effect<Result, unknown> = Effect.scoped(
  Effect.gen(function*() {
    const users = usersOfSpread()
    const bench = BenchFixture.make({ bots: 0, users: fixtureUsers })
    const server = yield* Servers.spawnReference({ bots: 0, users: fixtureUsers })
    const made = Math.max(users, ...saturatingUsers, warmUp.users)
    yield* Progress.line(`B9: making ${made} clients in the client process`)
    const { execPath, transport } = yield* clientSetup
    const client = yield* spawnClient(
      { baseUrl: server.baseUrl, tokens: bench.userTokens.slice(0, made), transport },
      execPath
    )
    const nodeVersion = execFileSync(execPath, ["--version"], { encoding: "utf8" }).trim()
    let id = 0
    yield* Progress.line(`B9: warm-up, ${warmUp.users} users for ${warmUp.seconds} s (not measured)`)
    yield* saturate(server, client, warmUp.users, warmUp.seconds, id++)
    const saturated: Array<Saturated> = []
    for (const n of saturatingUsers) {
      yield* Progress.line(`B9: (a) ${n} user${n === 1 ? "" : "s"} saturating, ${saturateSeconds} s`)
      saturated.push(yield* saturate(server, client, n, saturateSeconds, id++))
    }
    yield* Progress.line(`B9: (b) ${users} users once every ${periodSeconds} s, ${spreadSeconds} s`)
    const profileDir = process.env["BENCH_B9_PROFILE"]
    const profileFile = profileDir === undefined ? undefined : path.resolve(profileDir, "b9-spread.cpuprofile")
    const b = yield* spread(server, client, users, id++, profileFile)

    const { ready } = client
    const oneUser = saturated[0]!
    const { afterIdle, before, during } = b.reply
    const heapDuring = mean(during.map((r) => r.heapUsedMiB))
    const activeUsers = mean(during.map((r) => r.holding.permitStore))
    const heapPerActiveUserKiB = ((heapDuring - before.heapUsedMiB) * 1024) / Math.max(1, activeUsers)
    const heapAfterVersusBefore = afterIdle.heapUsedMiB / before.heapUsedMiB
    const cpuVersusOneUser = b.cpuMicrosPerCall / oneUser.cpuMicrosPerCall
    const demandPerSecond = users / periodSeconds

    const figures: Record<string, number | string> = {
      clientNode: nodeVersion,
      clientTransport: transport,
      fixtureUsers,
      clients: ready.clients,
      clientsBuildMs: Math.round(ready.buildMillis),
      heapBeforeClientsMiB: round(ready.beforeClients.heapUsedMiB, 1),
      heapWithClientsMiB: round(ready.withClients.heapUsedMiB, 1),
      heapPerClientKiB: round(
        ((ready.withClients.heapUsedMiB - ready.beforeClients.heapUsedMiB) * 1024) / ready.clients,
        2
      )
    }
    for (const s of saturated) {
      const key = `a.${s.users}u`
      figures[`${key}.okPerSecond`] = round(s.okPerSecond, 2)
      figures[`${key}.goalOkPerSecond`] = round(goals.rate * s.users * limitPerUser, 2)
      figures[`${key}.error5`] = s.error5
      figures[`${key}.cpuMicrosPerCall`] = Math.round(s.cpuMicrosPerCall)
      figures[`${key}.failedCalls`] = failuresText(s.tally)
    }
    Object.assign(figures, {
      "b.users": users,
      "b.demandPerSecond": demandPerSecond,
      "b.demand": b.demand,
      "b.delivered": b.delivered,
      "b.serverOk": b.serverOk,
      "b.clientOk": b.reply.tally.ok,
      "b.deliveredRatio": round(b.delivered / b.demand, 4),
      "b.okPerSecondMin": b.okPerSecondMin,
      "b.okPerSecondMax": b.okPerSecondMax,
      "b.error5": b.error5,
      "b.failedCalls": failuresText(b.reply.tally),
      "b.lagP50Ms": round(b.reply.lagMillis.p50, 1),
      "b.lagP99Ms": round(b.reply.lagMillis.p99, 1),
      "b.lagMaxMs": round(b.reply.lagMillis.max, 1),
      "b.cpuMicrosPerCall": Math.round(b.cpuMicrosPerCall),
      "b.cpuVersusOneUser": round(cpuVersusOneUser, 3),
      "b.heapBeforeMiB": round(before.heapUsedMiB, 2),
      "b.heapDuringMiB": during.map((r) => round(r.heapUsedMiB, 2)).join(" "),
      "b.activeUsersDuring": during.map((r) => r.holding.permitStore).join(" "),
      "b.pacingUsersDuring": during.map((r) => r.holding.pacing).join(" "),
      "b.inFlightDuring": during.map((r) => r.inFlight).join(" "),
      "b.queuedDuring": during.map((r) => r.queued).join(" "),
      "b.heapPerActiveUserKiB": round(heapPerActiveUserKiB, 2),
      "b.heapAfterIdleMiB": round(afterIdle.heapUsedMiB, 2),
      "b.heapAfterVersusBefore": round(heapAfterVersusBefore, 4),
      "b.rssBeforeMiB": round(before.rssMiB, 1),
      "b.rssAfterIdleMiB": round(afterIdle.rssMiB, 1),
      "b.beforeHolding":
        `permitStore ${before.holding.permitStore}, pacing ${before.holding.pacing}, countStore ${before.holding.countStore}`,
      "b.afterIdle.permitStoreUsers": afterIdle.holding.permitStore,
      "b.afterIdle.pacingUsers": afterIdle.holding.pacing,
      "b.afterIdle.countStoreUsers": afterIdle.holding.countStore
    })
    if (profileFile !== undefined) figures["b.profile"] = `${profileFile}: ${Lines.profileSummary(profileFile, 20)}`

    const misses = [
      ...saturated.flatMap((s) => {
        const goal = goals.rate * s.users * limitPerUser
        return [
          ...(s.okPerSecond < goal
            ? [
              `(a) ${s.users} users: ${round(s.okPerSecond, 2)} ok/s, ${round(goal - s.okPerSecond, 2)}/s under ${goal}`
            ]
            : []),
          ...(s.error5 > 0 ? [`(a) ${s.users} users: ${s.error5} errors 5`] : [])
        ]
      }),
      ...(b.delivered < goals.rate * b.demand
        ? [`(b) ${round(b.delivered / b.demand, 4)} of the demand delivered, under ${goals.rate}`]
        : []),
      ...(b.error5 > 0 ? [`(b) ${b.error5} errors 5`] : []),
      ...(cpuVersusOneUser > goals.cpuVersusOneUser
        ? [`(b) client CPU ${round(cpuVersusOneUser, 3)}× (a) at one user, over ${goals.cpuVersusOneUser}×`]
        : []),
      ...(heapAfterVersusBefore > goals.heapAfterIdle
        ? [`(b) heap after idle ${round(heapAfterVersusBefore, 3)}× the heap before, over ${goals.heapAfterIdle}×`]
        : []),
      ...(users < fixtureUsers ? [`a trial: ${users} users in (b) (BENCH_B9_USERS), not ${fixtureUsers}`] : [])
    ]
    const okPerSecondText = saturated.map((s) => `${s.users}u ${round(s.okPerSecond, 1)}/s`).join(", ")
    const cpuText = [...saturated.map((s) => s.cpuMicrosPerCall), b.cpuMicrosPerCall].map(Math.round).join("/")
    return {
      id: "B9",
      title: "The client at scale",
      method: `One client process (Node ${nodeVersion}, --expose-gc) with one client per user's token ` +
        `(${ready.clients}), all on one shared Pacing over one memory PermitStore and one CreationQuota over one ` +
        `memory CountStore, over ${
          transport === "undici" ? "undici's dispatcher (NodeHttpClient.layerUndici)" : "fetch"
        }; ` +
        `the reference server with a generated fixture of ${fixtureUsers} users in another process. After a ` +
        `warm-up (${warmUp.users} users saturating for ${warmUp.seconds} s, not measured): (a) ` +
        `${saturatingUsers.join(", ")} users, ${fibersPerUser} fibers each calling users/me in a loop for ` +
        `${saturateSeconds} s; (b) ${users} users each calling users/me once every ${periodSeconds} s, phases ` +
        `spread evenly, for ${spreadSeconds} s, queued as they fall due for ${maxInFlight} senders (at most ` +
        `${maxInFlight} calls in flight; a call still queued ${periodSeconds} s after it was due is not sent: ` +
        "NotSentInTime). Ok " +
        "answers and errors 5 from the server's request log (retries included); (b) delivered = the smaller of " +
        "the server's ok answers up to 1 s past its end and the client's; client CPU per call = process.cpuUsage() of the client process " +
        "over the point (less the collections of the readings) / calls answered ok; heap used after full " +
        `collections ${quietMillis / 1000} s after (a) (before (b)), at 10 and 20 s into (b) and ` +
        `${quietMillis / 1000} s after its last answer; active users = PermitStore.Memory.users at each reading.`,
      figures,
      target: `(a) >= ${goals.rate} × N × ${limitPerUser} ok/s and zero error 5 at each N; (b) >= ${goals.rate} ` +
        `of the demand delivered, zero error 5, client CPU per call <= ${goals.cpuVersusOneUser}× (a) at one ` +
        `user, heap after all users are idle <= ${goals.heapAfterIdle}× the heap before they started`,
      met: misses.length === 0,
      headline: `(a) ${okPerSecondText}; (b) ${round((b.delivered / b.demand) * 100, 1)}% of ${demandPerSecond}/s; ` +
        `errors 5: ${saturated.reduce((n, s) => n + s.error5, 0) + b.error5}; CPU µs/call ${cpuText}; ` +
        `heap ${round(heapPerActiveUserKiB, 1)} KiB/active user, after idle ${round(heapAfterVersusBefore, 3)}× ` +
        `(users held ${afterIdle.holding.permitStore}/${afterIdle.holding.pacing}/${afterIdle.holding.countStore})`,
      ...(misses.length > 0 ? { note: misses.join("; ") } : {})
    } satisfies Result
  })
)

/** The parts of B9 to run (`BENCH_B9_POINTS`): both unless told otherwise. */
const partsToRun = () => {
  const asked = (process.env["BENCH_B9_POINTS"] ?? "scale,stall").split(",").map((part) => part.trim().toLowerCase())
  return { scale: asked.includes("scale"), stall: asked.includes("stall") }
}

/** Runs B9: the scale points and the stall part, in one entry. */
export const run: Effect.Effect<Result, unknown> = Effect.gen(function*() {
  const parts = partsToRun()
  const scaled = parts.scale ? yield* scale : undefined
  const stall = parts.stall ? yield* B9Stall.measure : undefined
  const trial = [
    ...(parts.scale ? [] : ["a trial: the scale points not run (BENCH_B9_POINTS)"]),
    ...(parts.stall ? [] : ["a trial: the stall part not run (BENCH_B9_POINTS)"])
  ]
  const notes = [...(scaled?.note === undefined ? [] : [scaled.note]), ...(stall?.misses ?? []), ...trial]
  return {
    id: "B9",
    title: "The client at scale",
    method: [scaled?.method, stall?.method].filter((text) => text !== undefined).join(" "),
    figures: { ...scaled?.figures, ...stall?.figures },
    target: [scaled?.target, stall?.target].filter((text) => text !== undefined).join("; "),
    met: (scaled?.met ?? false) && stall !== undefined && stall.misses.length === 0,
    headline: [scaled?.headline, stall?.headline].filter((text) => text !== undefined).join("; "),
    ...(notes.length > 0 ? { note: notes.join("; ") } : {})
  } satisfies Result
})
