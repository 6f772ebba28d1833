/**
 * B1's workload, harness and report, shared by both Effect lines (plain TypeScript, no Effect): the
 * cases, the interleaving of the sides, the figures and the result. Each line gives only its sides
 * as promises (its client's call, timed inside the effect) and its measure apart from any socket.
 */
import { performance } from "node:perf_hooks"
import type { Result } from "./Result.js"
import { median, round } from "./Stats.js"

/** Users the calls are spread over, round-robin, so that none meets the rate limit. */
export const users = 64
/** Bots in the benchmark's community (a full page). */
export const bots = 500
/** The client's latency over raw `fetch` + `JSON.parse`, at most. */
export const target = 1.3
/** Calls in each round of the measure without a socket, and rounds (alternated, best kept). */
export const isolatedCalls = 2000
export const isolatedRounds = 5

/** The cases' names, in order. */
export const names = ["usersMe", "botsGet500"] as const

/** One case: an operation, its parameters on the wire, how many samples. */
export interface Case {
  readonly name: typeof names[number]
  readonly path: string
  readonly samples: number
  readonly warmup: number
  readonly params: Record<string, unknown>
}

/** The cases, in order. */
export const cases = (community: { readonly group_id: number; readonly channel: string }): ReadonlyArray<Case> => [
  { name: "usersMe", path: "users/me", samples: 2000, warmup: 200, params: {} },
  { name: "botsGet500", path: "bots/get", samples: 300, warmup: 60, params: { ...community, count: bots } }
]

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

/** A side: one call by user `user`, its milliseconds. */
export type Side = (user: number) => Promise<number>

/**
 * Runs the sides of `c` one after the other, warm-up first, rotating which goes first (so that none
 * always follows another), until `signal` aborts: the milliseconds of each side's measured calls.
 */
export const interleave = async (
  c: Case,
  sides: ReadonlyArray<Side>,
  signal: AbortSignal
): Promise<Array<Array<number>>> => {
  const millis = sides.map((): Array<number> => [])
  for (let i = 0; i < c.warmup + c.samples; i++) {
    // Interrupted (Ctrl-C): no more calls.
    signal.throwIfAborted()
    for (let k = 0; k < sides.length; k++) {
      const side = (i + k) % sides.length
      const taken = await sides[side]!(i % users)
      if (i >= c.warmup) millis[side]!.push(taken)
    }
  }
  return millis
}

/** The best of {@link isolatedRounds} alternated rounds of two measures (microseconds per call). */
export const bestOfRounds = async (
  client: () => Promise<number>,
  platform: () => Promise<number>
): Promise<{ readonly clientMicros: number; readonly platformMicros: number }> => {
  let clientMicros = Infinity
  let platformMicros = Infinity
  for (let i = 0; i < isolatedRounds; i++) {
    clientMicros = Math.min(clientMicros, await client())
    platformMicros = Math.min(platformMicros, await platform())
  }
  return { clientMicros, platformMicros }
}

/**
 * The figures of `c`: `millis` are the client's, raw `fetch`'s and the line's platform `HttpClient`'s,
 * in that order.
 */
export const caseFigures = (
  c: Case,
  millis: ReadonlyArray<ReadonlyArray<number>>,
  isolated: { readonly clientMicros: number; readonly platformMicros: number }
): Record<string, number> => {
  const [clientMillis, rawMillis, platformMillis] = millis.map(median) as [number, number, number]
  // The median of the ratios of calls made side by side: a slow spell of the shared machine then
  // weighs on both sides of a ratio, not on one median.
  const ratio = median(millis[0]!.map((m, k) => m / millis[1]![k]!))
  return {
    [`${c.name}.clientMedianMs`]: round(clientMillis, 3),
    [`${c.name}.rawMedianMs`]: round(rawMillis, 3),
    [`${c.name}.ratio`]: round(ratio, 3),
    [`${c.name}.ratioOfMedians`]: round(clientMillis / rawMillis, 3),
    [`${c.name}.platformHttpClientMedianMs`]: round(platformMillis, 3),
    [`${c.name}.samples`]: c.samples,
    [`${c.name}.isolatedClientMicrosPerCall`]: Math.round(isolated.clientMicros),
    [`${c.name}.isolatedPlatformMicrosPerCall`]: Math.round(isolated.platformMicros)
  }
}

/** The result of B1 from the cases' figures; `platform` names the line's `HttpClient`. */
export const report = (
  figures: Record<string, number>,
  notOk: number,
  options: { readonly id: string; readonly title: string; readonly platform: string }
): Result => {
  const ratios = names.map((name) => figures[`${name}.ratio`]!)
  const worst = Math.max(...ratios)
  const met = worst <= target && notOk === 0
  return {
    id: options.id,
    title: options.title,
    method:
      `Sequential calls interleaved client/raw/platform (order rotated), spread over ${users} users so that no call ` +
      "waits for the rate limit; client over fetch, raw = fetch + JSON.parse, and for reference " +
      `${options.platform} alone over the same fetch; after a warm-up; ratio = median of the ` +
      "per-iteration client/raw ratios (ratio of the medians given too); the server in a child process. " +
      `Isolated: ${isolatedCalls} calls per round, best of ${isolatedRounds} alternated rounds, through an ` +
      "HttpClient answering at once with the server's bytes: the client's own microseconds per call against the " +
      "platform's HttpClient alone.",
    figures: { ...figures, serverAnswersNotOk: notOk },
    target: `client/raw latency ratio (median) <= ${target} for users/me and a ${bots}-item bots/get page`,
    met,
    headline: `users/me ${figures["usersMe.ratio"]}x, bots/get ${bots} ${figures["botsGet500.ratio"]}x`,
    ...(met ? {} : {
      note: `worst ratio ${round(worst, 3)} is ${round((worst / target - 1) * 100, 1)}% over the target` +
        (notOk > 0 ? `; ${notOk} server answers were not ok` : "")
    })
  }
}
