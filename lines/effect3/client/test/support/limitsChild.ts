/**
 * One process of a user on the Effect 3 line, for the scenarios of limits shared through Redis
 * (`SharedLimits`, `RedisCluster`): run as a real Node process from a bundle of this file by the
 * harness (`tests/client-behaviour/src/Processes.ts`, which defines its jobs and report). It builds
 * its client with the limiters of its job (Redis, or this process's memory), writes `ready` on
 * standard output, waits for `go` on standard input (so that the processes of a test start
 * together), does its job and writes one line of JSON with what it saw.
 *
 * Jobs:
 * - `rate`: `fibers` fibers call `users/me` in a loop for `seconds`;
 * - `create`: `creations` calls of `lists/create` at once, with `onCreationLimit`;
 * - `hold`: takes every permit of `userKey` for a request that never ends, writes `holding`, and
 *   stays so until it is killed.
 */
import { GroupId } from "@community-api/schema/Ids"
import { FetchHttpClient } from "@effect/platform"
import { Cause, Duration, Effect, Exit, Layer, Redacted } from "effect"
import * as readline from "node:readline"
import type { Job, Report } from "../../../../../tests/client-behaviour/src/Processes.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

export type { Job, Report }

/** What this child is asked to do (its first argument, as JSON). */
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
    // Wait mode may queue a creation behind two minutes of others.
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
            group_id: GroupId.make(job.community?.group_id ?? 0),
            channel: job.community?.channel ?? "VK",
            name: `${job.name ?? "list"}-${i}`
          })),
          note
        ),
      { concurrency: "unbounded" }
    )
  } else {
    const user = job.userKey ?? ""
    let held = 0
    yield* Effect.forEach(
      Array.from({ length: pacing.settings.limit }),
      () =>
        Effect.fork(
          pacing.withPermit(user)(Effect.zipRight(
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
