/**
 * The client a command runs on, chosen by {@link Credentials}: the real client over undici for a base
 * URL, or the same client over the in-process reference server with the demo data (embedded mode,
 * announced on standard error).
 *
 * @since 0.1.0
 */
import * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Paginate from "@community-api/client/Paginate"
import * as Retry from "@community-api/client/Retry"
import type { Operation } from "@community-api/schema"
import { NodeHttpClient } from "@effect/platform-node"
import { Chunk, Console, Effect, Layer, Option, Redacted, Schedule, Stream } from "effect"
import { Api } from "./Api.js"
import type * as ApiModule from "./Api.js"
import * as Credentials from "./Credentials.js"
import * as Report from "./Report.js"
import type { UsageError } from "./UsageError.js"

/**
 * The {@link Api.Api} of a client. `pages` follows the client's paging (pages of 500, repeats
 * dropped) from the caller's `offset`, and keeps each page's `total` for the progress bar.
 *
 * @since 0.1.0
 */
export const fromClient = (client: CommunityApiClient.Client): ApiModule.Service => ({
  execute: (op, params) => client.execute(op, params as never),
  call: (op, params) => client.call(op.path, params),
  pages: (op, params) =>
    Stream.suspend(() => {
      const { count, offset, ...rest } = params
      const start = typeof offset === "number" ? offset : 0
      let total = 0
      const fetch = (position: Paginate.Position) =>
        client.page(op as Operation.Pageable, rest as never, {
          offset: start + position.offset,
          count: position.count
        }).pipe(
          Effect.map((page) => {
            total = page.total
            return { items: page.items, total: Math.max(0, page.total - start) }
          })
        )
      return Paginate.stream(fetch, { pageSize: typeof count === "number" ? count : undefined }).pipe(
        Stream.chunks,
        Stream.map((chunk) => ({ items: Chunk.toReadonlyArray(chunk), total: Math.max(0, total - start) }))
      )
    })
})

/**
 * How a command wants its client.
 *
 * @since 0.1.0
 */
export interface Settings {
  /** Read the token from standard input. */
  readonly tokenStdin: boolean
  /** At most this many retries (the client's default is the upper bound). */
  readonly retries: Option.Option<number>
}

const clientOptions = (settings: Pick<Settings, "retries">) => ({
  // A command line should say at once that the creation minute is used up, not wait silently.
  onCreationLimit: "fail" as const,
  ...Option.match(settings.retries, {
    onNone: () => ({}),
    onSome: (n) => ({
      retry: {
        schedule: Retry.defaultSchedule.pipe(Schedule.intersect(Schedule.recurs(Math.max(0, n)))),
        limitRetries: Math.max(0, Math.min(n, Retry.defaultPolicy.limitRetries))
      }
    })
  })
})

/**
 * The client layer of a target.
 *
 * @since 0.1.0
 */
export const layer = (target: Credentials.Target, settings: Pick<Settings, "retries">): Layer.Layer<Api> => {
  if (target._tag === "Remote") {
    return Layer.effect(Api, Effect.map(CommunityApiClient.CommunityApiClient, fromClient)).pipe(
      Layer.provide(
        CommunityApiClient.layer({ baseUrl: target.baseUrl, token: target.token, ...clientOptions(settings) })
      ),
      Layer.provide(NodeHttpClient.layerUndici)
    )
  }
  // The server's code is loaded only in embedded mode: a call to a real base URL does not pay for it.
  return Layer.unwrapEffect(
    Effect.promise(() =>
      Promise.all([import("@community-api/server/ReferenceServer"), import("@community-api/server/DemoFixture")])
    ).pipe(
      Effect.map(([ReferenceServer, DemoFixture]) => {
        const token = Option.getOrElse(target.token, () => Redacted.make(DemoFixture.tokens.owner))
        return Layer.effect(Api, Effect.map(CommunityApiClient.CommunityApiClient, fromClient)).pipe(
          Layer.provide(
            CommunityApiClient.layer({ baseUrl: ReferenceServer.inProcessBaseUrl, token, ...clientOptions(settings) })
          ),
          Layer.provide(ReferenceServer.layerTest())
        )
      }),
      Effect.tap(() =>
        Console.error(
          `${Report.prefix} no ${Credentials.baseUrlVariable}: using the embedded sandbox with the demo data` +
            (Option.isSome(target.token) ? " and the token given" : " as the demo owner")
        )
      )
    )
  )
}

/**
 * Runs a command's effect on the client of the credentials found for it.
 *
 * @since 0.1.0
 */
export const provide =
  (settings: Settings) => <A, E>(effect: Effect.Effect<A, E, Api>): Effect.Effect<A, E | UsageError> =>
    Effect.flatMap(Credentials.resolve(settings), (target) => Effect.provide(effect, layer(target, settings)))
