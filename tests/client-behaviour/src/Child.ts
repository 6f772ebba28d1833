/**
 * What a child program of either line does (`test/support/limitsChild.ts`, see `Processes.ts`), built
 * of the line's `Effect`, `Exit`, `Cause` and `Duration` modules (their functions of the same names on
 * both lines): it writes `ready`, waits for `go` on standard input (so that the processes of a test
 * start together), does its job and writes one line of JSON, its report. The line builds the client
 * and its limiters and runs the effect.
 *
 * Jobs:
 * - `rate`: `fibers` fibers call `users/me` in a loop for `seconds`;
 * - `create`: `creations` calls of `lists/create` at once, with `onCreationLimit`;
 * - `hold`: takes every permit of `userKey` for a request that never ends, writes `holding`, and
 *   stays so until it is killed.
 */
import * as readline from "node:readline"
import type { Job, Report } from "./Processes.js"

/** The line's modules, and its `fork` of a child fiber. */
export interface Modules {
  readonly Cause: any
  readonly CreationQuota: any
  readonly Duration: any
  readonly Effect: any
  readonly Exit: any
  readonly Layer: any
  readonly Pacing: any
  readonly Redacted: any
  readonly fork: (self: any) => any
}

/** What a child is asked to do (its first argument, as JSON). */
export const job = (): Job => JSON.parse(process.argv[2] ?? "{}") as Job

/** The limiters of the job: over its Redis, or this process's memory. */
export const limiters = ({ CreationQuota, Duration, Layer, Pacing }: Modules, job: Job): any =>
  job.redisUrl === undefined
    ? Layer.mergeAll(Pacing.layer(), CreationQuota.layer())
    : Layer.mergeAll(
      Pacing.layerRedis({
        url: job.redisUrl,
        prefix: job.prefix,
        ...(job.leaseMillis === undefined ? {} : { lease: Duration.millis(job.leaseMillis) })
      }),
      CreationQuota.layerRedis({ url: job.redisUrl, prefix: job.prefix })
    )

/** The client's configuration of the job. */
export const config = ({ Duration, Redacted }: Modules, job: Job): any => ({
  baseUrl: job.baseUrl,
  token: Redacted.make(job.token),
  userKey: job.userKey,
  onCreationLimit: job.onCreationLimit,
  // Wait mode may queue a creation behind two minutes of others.
  deadline: Duration.minutes(5)
})

/** The job done with the line's client (`me`, `create` of a list) and pacing: an effect of the line. */
export const run = (
  { Cause, Duration, Effect, Exit, fork }: Modules,
  job: Job,
  client: {
    readonly me: () => unknown
    readonly createList: (params: { group_id: number; channel: string; name: string }) => unknown
  },
  pacing: { readonly settings: { readonly limit: number }; readonly withPermit: (user: string) => (self: any) => any }
): unknown => {
  const lines = readline.createInterface({ input: process.stdin })
  const go = new Promise<void>((resolve) => lines.on("line", (line) => line.trim() === "go" && resolve()))
  return Effect.gen(function*() {
    process.stdout.write("ready\n")
    yield* Effect.promise(() => go)
    const okAt: Array<number> = []
    const failures: Record<string, number> = {}
    const messages: Record<string, string> = {}
    const failedAt: Array<{ at: number; tag: string }> = []
    const note = (exit: unknown) =>
      Effect.sync(() => {
        if (Exit.isSuccess(exit)) return void okAt.push(Date.now())
        const error = Cause.squash((exit as { cause: unknown }).cause) as { _tag?: string; message?: string }
        const tag = error._tag ?? "defect"
        failures[tag] = (failures[tag] ?? 0) + 1
        failedAt.push({ at: Date.now(), tag })
        messages[tag] ??= String(error.message)
      })
    if (job.kind === "rate") {
      const end = Date.now() + (job.seconds ?? 1) * 1000
      const pause = job.pauseAfterFailureMillis ?? 0
      const loop = Effect.whileLoop({
        while: () => Date.now() < end,
        body: () =>
          Effect.flatMap(Effect.exit(client.me()), (exit: unknown) =>
            // A caller told the limiter is unavailable waits a little before it tries again.
            Effect.andThen(
              note(exit),
              Exit.isFailure(exit) && pause > 0 ? Effect.sleep(Duration.millis(pause)) : Effect.void
            )),
        step: () => undefined
      })
      yield* Effect.all(Array.from({ length: job.fibers ?? 1 }, () => loop), { concurrency: "unbounded" })
    } else if (job.kind === "create") {
      yield* Effect.forEach(
        Array.from({ length: job.creations ?? 1 }, (_, i) => i),
        (i: number) =>
          Effect.tap(
            Effect.exit(client.createList({
              group_id: job.community?.group_id ?? 0,
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
      const hold = Effect.sync(() => {
        if (++held === pacing.settings.limit) process.stdout.write("holding\n")
      })
      yield* Effect.forEach(
        Array.from({ length: pacing.settings.limit }),
        () => fork(pacing.withPermit(user)(Effect.andThen(hold, Effect.never)))
      )
      return yield* Effect.never
    }
    const report: Report = { ok: okAt.length, okAt, failures, messages, failedAt }
    process.stdout.write(`${JSON.stringify(report)}\n`)
  })
}

/** Ends the process once the job's exit is known: 0 on success, else 1 with its cause on standard error. */
export const exit = (failure: string | undefined) => {
  if (failure !== undefined) process.stderr.write(`${failure}\n`)
  process.exit(failure === undefined ? 0 : 1)
}
