/**
 * Clients against a running server, over the global `fetch` (as the raw calls of `B1Workload`), so
 * that a side-by-side difference is the client's own cost.
 */
import { CommunityApiClient, Pacing } from "@community-api/client"
import { FetchHttpClient } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { performance } from "node:perf_hooks"

/** A client of `token` over `fetch`, with the given pacing service (default: a fresh default one). */
export const make = (
  baseUrl: string,
  token: string,
  pacing: Pacing.Service = Pacing.unsafeMake()
): Effect.Effect<CommunityApiClient.Client> =>
  CommunityApiClient.make({ baseUrl, token: Redacted.make(token) }).pipe(
    Effect.provideService(Pacing.Pacing, pacing),
    Effect.provide(FetchHttpClient.layer)
  )

/** Times an effect with the live clock (milliseconds). */
export const timed = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<number, E> =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.map(effect, () => performance.now() - started)
  })

/** The client type. */
export type ClientOf = CommunityApiClient.Client
