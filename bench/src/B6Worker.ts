/**
 * One process of a user in B6: a client with its limiters (this process's memory, or the Redis store),
 * `fibers` fibers calling `users/me` in a loop for a fixed time. It says `ready` once its limiters are
 * built, starts at `go` (so that the processes of a run start together) and reports what it saw.
 */
import { CommunityApiClient, CreationQuota, Pacing } from "@community-api/client"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Exit, Layer, Redacted } from "effect"

/** What the worker is asked to do. */
export interface Job {
  readonly baseUrl: string
  readonly token: string
  /** The Redis store, or absent for this process's own limiters. */
  readonly redis?: { readonly url: string; readonly prefix: string } | undefined
  readonly fibers: number
  readonly millis: number
}

/** What the worker says. */
export type Message =
  | { readonly _tag: "ready" }
  | { readonly _tag: "report"; readonly ok: number; readonly failures: Readonly<Record<string, number>> }

const send = (message: Message) => process.send?.(message)

const run = (job: Job, go: Promise<void>) =>
  Effect.gen(function*() {
    const client = yield* CommunityApiClient.make({ baseUrl: job.baseUrl, token: Redacted.make(job.token) })
    send({ _tag: "ready" })
    yield* Effect.promise(() => go)
    let ok = 0
    const failures: Record<string, number> = {}
    const end = Date.now() + job.millis
    const loop = Effect.whileLoop({
      while: () => Date.now() < end,
      body: () => Effect.exit(client.users.me()),
      step: (exit) => {
        if (Exit.isSuccess(exit)) ok++
        else {
          const tag = exit.cause._tag === "Fail" ? String((exit.cause.error as { _tag?: string })._tag) : "defect"
          failures[tag] = (failures[tag] ?? 0) + 1
        }
      }
    })
    yield* Effect.all(Array.from({ length: job.fibers }, () => loop), { concurrency: "unbounded", discard: true })
    send({ _tag: "report", ok, failures })
  }).pipe(
    Effect.provide(Layer.mergeAll(
      FetchHttpClient.layer,
      job.redis === undefined
        ? Layer.mergeAll(Pacing.layer(), CreationQuota.layer())
        : Layer.mergeAll(Pacing.layerRedis(job.redis), CreationQuota.layerRedis(job.redis))
    ))
  )

// The parent gone, nothing is left to do.
process.on("disconnect", () => process.exit(0))

process.once("message", (job: Job) => {
  const go = new Promise<void>((resolve) => process.once("message", () => resolve()))
  void Effect.runPromiseExit(run(job, go)).then((exit) => process.exit(Exit.isSuccess(exit) ? 0 : 1))
})
