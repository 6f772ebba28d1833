/**
 * Clients and raw calls against a running server, over the same transport (the global `fetch`), so
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

/** A raw call: `fetch` plus `JSON.parse`, timed inside the promise (milliseconds). */
export const rawTimed = (url: string, token: string, body: string): Promise<{ millis: number; value: unknown }> => {
  const started = performance.now()
  return fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body
  }).then((response) => response.text()).then((text) => {
    const value: unknown = JSON.parse(text)
    return { millis: performance.now() - started, value }
  })
}

/** Times an effect with the live clock (milliseconds). */
export const timed = <A, E>(effect: Effect.Effect<A, E>): Effect.Effect<number, E> =>
  Effect.suspend(() => {
    const started = performance.now()
    return Effect.map(effect, () => performance.now() - started)
  })

/** The client type. */
export type ClientOf = CommunityApiClient.Client
