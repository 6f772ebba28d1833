/**
 * Clients of the Effect 4 line against a running server, over the global `fetch` (as the Effect 3
 * line's benchmarks and the raw calls), so that a side-by-side difference is the client's own cost.
 */
import { CommunityApiClient, Pacing } from "@community-api/effect4-client"
import { Effect, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { performance } from "node:perf_hooks"

/** The client type. */
export type Client = CommunityApiClient.Client

/** A client of `token` over `fetch`, with a pacing of its own (default: a fresh default one). */
export const make = (
  baseUrl: string,
  token: string,
  pacing: Pacing.Service<never> = Pacing.makeUnsafe()
): Effect.Effect<Client> =>
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
