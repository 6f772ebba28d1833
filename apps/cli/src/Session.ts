/**
 * The client a command runs on: the client's `Target.layer` for the target {@link Credentials} found,
 * with the command line's budget. A real API is reached over `node:http` (its limiters in Redis when
 * `COMMUNITY_API_REDIS_URL` is set); with no base URL, the same client runs over the in-process
 * reference server with the demo data (embedded mode, announced on standard error).
 *
 * @since 0.1.0
 */
import type * as ClientError from "@community-api/client/ClientError"
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Paginate from "@community-api/client/Paginate"
import * as Retry from "@community-api/client/Retry"
import * as Target from "@community-api/client/Target"
import type { Operation } from "@community-api/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { Console, Duration, Effect, Layer, Option, Schedule, Stream } from "effect"
import { Api } from "./Api.js"
import type * as ApiModule from "./Api.js"
import * as Credentials from "./Credentials.js"
import * as Report from "./Report.js"
import { Stdio } from "./Stdio.js"
import type { UsageError } from "./UsageError.js"

/**
 * The {@link Api.Api} of a client whose limiters keep the limits where `limiters` says. `pages`
 * follows the client's paging (`Paginate.pages`: pages of 500, repeats dropped) from the caller's
 * `offset`; each page's `total` counts the records from that offset, for the progress bar.
 *
 * @since 0.1.0
 */
export const fromClient = (
  client: CommunityApiClient.Client,
  limiters: Target.Limiters
): ApiModule.Service => ({
  execute: (op, params) => client.execute(op, params as never),
  call: (op, params) => client.call(op.path, params),
  pages: (op, params) => {
    const { count, offset, ...rest } = params
    const start = typeof offset === "number" ? offset : 0
    return Paginate.pages(
      (position) => client.page(op as Operation.Pageable, rest as never, position),
      { offset: start, pageSize: typeof count === "number" ? count : undefined }
    ).pipe(Stream.map((page) => ({ items: page.items, total: Math.max(0, page.total - start) })))
  },
  budget: client.budget,
  limiters
})

/**
 * How a command wants its client.
 *
 * @since 0.1.0
 */
export interface Settings {
  /** Read the token from standard input. */
  readonly tokenStdin: boolean
  /** The retries after a transient failure (`--retries`); {@link budget} when absent, at most its `maxRetries`. */
  readonly retries: Option.Option<number>
}

/**
 * What the command line allows one call: less than the client's defaults (5 retries, 30 s an attempt,
 * 120 s a call), since someone is waiting at the terminal or a script for its exit code. A host that
 * never answers ends the call with exit 6 after at most {@link budget}`.deadline`.
 *
 * @since 0.1.0
 */
export const budget = {
  /** Sends again after a transient failure unless `--retries` says otherwise. */
  retries: 3,
  /** The most `--retries` may ask for: the client's own bound. */
  maxRetries: Retry.defaultPolicy.limitRetries,
  /** Time allowed for one attempt. */
  attemptTimeout: Duration.seconds(10),
  /** Time allowed for the whole call: every attempt, retry and wait. */
  deadline: Duration.seconds(30)
} as const

const seconds = (duration: Duration.Duration) => `${(Duration.toMillis(duration) / 1000).toFixed(1)} s`

/**
 * `schedule` that writes one line on standard error before each retry: what failed, the attempt that
 * comes next of `attempts`, and the wait before it.
 *
 * @since 0.1.0
 */
export const announced = (
  schedule: Schedule.Schedule<unknown, Retry.Retryable>,
  attempts: number
): Schedule.Schedule<unknown, Retry.Retryable> =>
  schedule.pipe(
    Schedule.intersect(Schedule.count),
    // The input of a retry schedule is the error: kept as an output, it can be told.
    Schedule.intersect(Schedule.identity<Retry.Retryable>()),
    Schedule.modifyDelayEffect(([[, retries], error], delay) =>
      Effect.as(
        Console.error(`${Report.line(error)}; attempt ${retries + 2} of ${attempts} in ${seconds(delay)}`),
        delay
      )
    )
  )

/**
 * How the client of a command retries and how long it waits, from `--retries` and {@link budget}.
 *
 * @since 0.1.0
 */
export const clientOptions = (settings: Pick<Settings, "retries">, options: { readonly announce: boolean }) => {
  const retries = Math.max(0, Math.min(Option.getOrElse(settings.retries, () => budget.retries), budget.maxRetries))
  const schedule = Retry.defaultSchedule.pipe(Schedule.intersect(Schedule.recurs(retries)))
  return {
    // A command line should say at once that the creation minute is used up, not wait silently.
    onCreationLimit: "fail" as const,
    timeout: budget.attemptTimeout,
    deadline: budget.deadline,
    retry: {
      schedule: options.announce ? announced(schedule, retries + 1) : schedule,
      limitRetries: retries
    }
  }
}

/**
 * The client layer of a target. The reference server's code is loaded only in embedded mode, which is
 * announced on standard error; a real API is reached over `node:http`, not undici, which compiles its
 * WebAssembly HTTP parser at the first request: a third of a short command's start and memory.
 *
 * @since 0.1.0
 */
export const layer = (
  target: Target.Target,
  settings: Pick<Settings, "retries">,
  options: { readonly announce: boolean } = { announce: false }
): Layer.Layer<Api, ClientError.LimiterUnavailable> => {
  const client = Target.layer(target, {
    client: clientOptions(settings, options),
    sandbox: Effect.promise(() => import("@community-api/server/Embedded"))
  })
  const announced = target._tag === "Remote" ? client : client.pipe(
    Layer.tap(() =>
      Console.error(
        `${Report.prefix} no ${Credentials.baseUrlVariable}: using the embedded sandbox with the demo data` +
          (Option.isSome(target.token) ? " and the token given" : " as the demo owner")
      )
    )
  )
  const limiters = Target.limitersOf(target)
  return Layer.effect(
    Api,
    Effect.map(CommunityApiClient.CommunityApiClient, (client) => fromClient(client, limiters))
  ).pipe(
    Layer.provide(announced),
    Layer.provide(NodeHttpClient.layer)
  )
}

/**
 * Runs a command's effect on the client of the credentials found for it.
 *
 * @since 0.1.0
 */
export const provide =
  (settings: Settings) =>
  <A, E>(effect: Effect.Effect<A, E, Api>): Effect.Effect<A, E | UsageError | ClientError.LimiterUnavailable> =>
    Effect.gen(function*() {
      const target = yield* Credentials.resolve(settings)
      // Retries are told where someone watches: on a terminal, not in a script's log.
      const { stderr } = yield* Stdio
      return yield* Effect.provide(effect, layer(target, settings, { announce: stderr.isTTY === true }))
    })
