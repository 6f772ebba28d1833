/**
 * One process of a user on the Effect 4 line, for the mixed-fleet test and the scenarios of limits
 * shared through Redis (`SharedLimits`, `RedisCluster`), bundled and started by the harness
 * (`tests/client-behaviour/src/Processes.ts`, which defines its jobs and report): the same jobs,
 * words and report as the Effect 3 line's child
 * (`lines/effect3/client/test/support/limitsChild.ts`), so that a test starts processes of both lines
 * alike. It builds its client with the limiters of its job (Redis, or this process's memory), writes
 * `ready`, waits for `go` on standard input, does its job and writes one line of JSON.
 *
 * Jobs: `rate` (`fibers` fibers call `users/me` for `seconds`), `create` (`creations` calls of
 * `lists/create` at once), `hold` (takes every permit of `userKey` for a request that never ends,
 * writes `holding`, and stays so until it is killed).
 */
import { Cause, Duration, Effect, Exit, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import * as readline from "node:readline"
import type { Job, Report } from "../../../../../tests/client-behaviour/src/Processes.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

/** What a child is asked to do (its first argument, as JSON). */
const job = JSON.parse(process.argv[2] ?? "{}") as Job

const lines = readline.createInterface({ input: process.stdin })
const go = new Promise<void>((resolve) => lines.on("line", (line) => line.trim() === "go" && resolve()))

const limiters = job.redisUrl === undefined
  ? Layer.mergeAll(Pacing.layer(), CreationQuota.layer())
  : Layer.mergeAll(
    Pacing.layerRedis({
      url: job.redisUrl,
      prefix: job.prefix,
      ...(job.leaseMillis === undefined ? {} : { lease: Duration.millis(job.leaseMillis) })
    }),
    CreationQuota.layerRedis({ url: job.redisUrl, prefix: job.prefix })
  )

const program = Effect.gen(function*() {
  const client = yield* CommunityApiClient.make({
    baseUrl: job.baseUrl,
    token: Redacted.make(job.token),
    userKey: job.userKey,
    onCreationLimit: job.onCreationLimit,
    deadline: Duration.minutes(5)
  })
  const pacing = yield* Pacing.Pacing
  process.stdout.write("ready\n")
  yield* Effect.promise(() => go)
  const okAt: Array<number> = []
  const failures: Record<string, number> = {}
  const messages: Record<string, string> = {}
  const failedAt: Array<{ at: number; tag: string }> = []
  const note = <A, E>(exit: Exit.Exit<A, E>) => {
    if (Exit.isSuccess(exit)) return void okAt.push(Date.now())
    const error = Cause.squash(exit.cause) as { readonly _tag?: string; readonly message?: string }
    const tag = error._tag ?? "defect"
    failures[tag] = (failures[tag] ?? 0) + 1
    failedAt.push({ at: Date.now(), tag })
    messages[tag] ??= String(error.message)
  }
  if (job.kind === "rate") {
    const end = Date.now() + (job.seconds ?? 1) * 1000
    const pause = job.pauseAfterFailureMillis ?? 0
    const loop = Effect.whileLoop({
      while: () => Date.now() < end,
      body: () =>
        Effect.flatMap(Effect.exit(client.users.me()), (exit) => {
          note(exit)
          // A caller told the limiter is unavailable waits a little before it tries again.
          return Exit.isFailure(exit) && pause > 0 ? Effect.sleep(Duration.millis(pause)) : Effect.void
        }),
      step: () => undefined
    })
    yield* Effect.all(Array.from({ length: job.fibers ?? 1 }, () => loop), { concurrency: "unbounded" })
  } else if (job.kind === "create") {
    yield* Effect.forEach(
      Array.from({ length: job.creations ?? 1 }, (_, i) => i),
      (i) =>
        Effect.tap(
          Effect.exit(client.lists.create({
            group_id: job.community?.group_id ?? 0,
            channel: job.community?.channel ?? "VK",
            name: `${job.name ?? "list"}-${i}`
          } as never)),
          (exit) => Effect.sync(() => note(exit))
        ),
      { concurrency: "unbounded" }
    )
  } else {
    const user = job.userKey ?? ""
    let held = 0
    yield* Effect.forEach(
      Array.from({ length: pacing.settings.limit }),
      () =>
        Effect.forkChild(
          pacing.withPermit(user)(Effect.andThen(
            Effect.sync(() => {
              held++
              if (held === pacing.settings.limit) process.stdout.write("holding\n")
            }),
            Effect.never
          ))
        )
    )
    return yield* Effect.never
  }
  const report: Report = { ok: okAt.length, okAt, failures, messages, failedAt }
  process.stdout.write(`${JSON.stringify(report)}\n`)
})

Effect.runPromiseExit(program.pipe(Effect.provide(Layer.mergeAll(limiters, FetchHttpClient.layer)))).then((exit) => {
  if (Exit.isFailure(exit)) process.stderr.write(`${Cause.pretty(exit.cause)}\n`)
  process.exit(Exit.isSuccess(exit) ? 0 : 1)
})
