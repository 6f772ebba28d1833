/**
 * The client's metrics on the Effect 4 line, as Effect `Metric`s in the registry of the context
 * (`Metric.MetricRegistry`): any exporter of Effect's metrics sees them (for Prometheus or OTLP,
 * `@effect/opentelemetry`'s `OtelMetrics.layer`; `docs/client.md`, "Metrics"). The names, units
 * and tags are the core's (`@community-api/core/MetricNames`), the same in both Effect lines.
 *
 * - {@link calls}: every call that ended, tagged `operation` and `outcome` (`ok`, an API error code,
 *   or the client's own: `transport`, `timeout`, `deadline`, `limiter`, `quota`, `outcome_unknown`…).
 * - {@link retries}: every attempt sent again, tagged `reason` (what the attempt before it failed with).
 * - {@link permitWait}: how long each request waited for its pacing permit (seconds).
 * - {@link refusals}: refusals by a limit, tagged `kind` (`rate`, `minute`, `day`) and `source`
 *   (`server`: the API's error 5; `client`: the client's own creation quota, nothing sent).
 * - {@link users}, {@link permitsHeld}: the users whose pacing state the process holds, and the
 *   permits its requests hold, over all users.
 * - {@link userPermitsHeld}: the permits held by one user's requests, tagged `user` (the user key,
 *   never a token). Only when asked for ({@link PerUserOptions}), for at most `max` users at once;
 *   a user's series leaves with its pacing state, once the user is idle.
 *
 * The counters' series known ahead (each operation's `ok` calls, each retry reason, each refusal)
 * and the histogram and gauges are there at zero once a client is made.
 *
 * @since 0.1.0
 */
import * as MetricNames from "@community-api/core/MetricNames"
import { Metric } from "effect"

/**
 * Per-user series: off unless given; `max` bounds the users that have one at once (default 1,000).
 *
 * @since 0.1.0
 * @category options
 */
export type PerUserOptions = MetricNames.PerUserOptions

/**
 * The metrics options of a pacing service (`Pacing.Settings.metrics`).
 *
 * @since 0.1.0
 * @category options
 */
export type Options = MetricNames.Options

/** A metric of the core's definitions, by their kind: each counter incremental. */
const counter = (definition: MetricNames.Definition) =>
  Metric.counter(definition.name, { description: definition.description, incremental: true })
const gauge = (definition: MetricNames.Definition) =>
  Metric.gauge(definition.name, { description: definition.description })

/**
 * Calls ended, by `operation` and `outcome`.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Metrics } from "@community-api/effect4-client"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Metric, Redacted } from "effect"
 * import { ok } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * // The calls of `users/me` that ended well, as any exporter of Effect's metrics reads them.
 * const okCalls = Metric.withAttributes(Metrics.calls, { operation: "users/me", outcome: "ok" })
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const before = (yield* Metric.value(okCalls)).count
 *   yield* api.users.me()
 *   ok((yield* Metric.value(okCalls)).count > before)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category constants
 */
export const calls = counter(MetricNames.calls)

/**
 * Attempts sent again, by `reason`.
 *
 * @since 0.1.0
 * @category constants
 */
export const retries = counter(MetricNames.retries)

/**
 * Seconds each request waited for its pacing permit (`community_api_client_permit_wait_seconds`).
 *
 * @since 0.1.0
 * @category constants
 */
export const permitWait = Metric.histogram(MetricNames.permitWait.name, {
  description: MetricNames.permitWait.description,
  boundaries: MetricNames.permitWaitBoundaries
})

/**
 * Refusals by a limit, by `kind` and `source`.
 *
 * @since 0.1.0
 * @category constants
 */
export const refusals = counter(MetricNames.refusals)

/**
 * Users whose pacing state this process holds now.
 *
 * @since 0.1.0
 * @category constants
 */
export const users = gauge(MetricNames.users)

/**
 * Pacing permits held now by this process's requests, over all users.
 *
 * @since 0.1.0
 * @category constants
 */
export const permitsHeld = gauge(MetricNames.permitsHeld)

/**
 * Pacing permits held now by one user's requests, tagged `user`: only with {@link PerUserOptions}.
 *
 * @since 0.1.0
 * @category constants
 */
export const userPermitsHeld = gauge(MetricNames.userPermitsHeld)
