/**
 * Priority lanes: a call marked `interactive` (someone waits for its answer) takes the next free
 * pacing permit of its user ahead of every queued `batch` call of the user in this process; on Redis,
 * a share of each window is kept for interactive calls across processes and lent to batch calls
 * whenever none waited in the last window (`RedisStore.PermitOptions.interactiveShare`).
 *
 * A call is `interactive` unless marked. Mark one call or a whole stream with {@link batch} (or
 * {@link withLane}); mark every call of a client with its `lane` option
 * (`CommunityApiClient.ClientConfig.lane`). A mark on the call wins over the client's.
 *
 * @since 0.1.0
 */
import * as CoreLane from "@community-api/core/Lane"
import { Context, Effect, Stream } from "effect"

/**
 * A lane: `interactive` or `batch`.
 *
 * @since 0.1.0
 * @category models
 */
export type Lane = CoreLane.Lane

/**
 * The lanes, the first served first.
 *
 * @since 0.1.0
 * @category constants
 */
export const lanes: ReadonlyArray<Lane> = CoreLane.lanes

/**
 * The defaults: `interactive`, and the share of each window kept for interactive calls on Redis.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = CoreLane.defaults

/**
 * The lane the calls of the current fiber are marked with, if any (set by {@link withLane}); a client
 * uses its own `lane` option, or `interactive`, for a call that is not marked.
 *
 * @since 0.1.0
 * @category tags
 */
export const CurrentLane = Context.Reference<Lane | undefined>("@community-api/effect4-client/Lane/CurrentLane", {
  defaultValue: () => undefined
})

/**
 * Marks every call of an effect or a stream with `lane`.
 *
 * @example
 * ```ts
 * import * as DemoData from "@community-api/core/DemoData"
 * import { CommunityApiClient, Lane } from "@community-api/effect4-client"
 * import { Ids } from "@community-api/effect4-schema"
 * import * as ReferenceServer from "@community-api/effect4-server/ReferenceServer"
 * import { Effect, Layer, Redacted, Schema, Stream } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * const client = CommunityApiClient.layer({
 *   baseUrl: ReferenceServer.inProcessBaseUrl,
 *   token: Redacted.make(DemoData.tokens.owner)
 * }).pipe(Layer.provide(ReferenceServer.layerTest()))
 *
 * // A nightly export takes its permits in the batch lane, leaving a share of each second to
 * // interactive calls of the same user.
 * const program = Effect.gen(function*() {
 *   const api = yield* CommunityApiClient.CommunityApiClient
 *   const community = { group_id: Schema.decodeSync(Ids.GroupId)(DemoData.mainCommunity.group_id), channel: DemoData.mainCommunity.channel }
 *   const bots = yield* Stream.runCount(Lane.withLane("batch")(api.streams.bots.get(community)))
 *   strictEqual(bots, DemoData.mainBotCount)
 * })
 *
 * await Effect.runPromise(program.pipe(Effect.provide(client)))
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const withLane = (lane: Lane): {
  <A, E, R>(self: Stream.Stream<A, E, R>): Stream.Stream<A, E, R>
  <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R>
} =>
  ((self: Effect.Effect<unknown, unknown, unknown> | Stream.Stream<unknown, unknown, unknown>) =>
    Stream.isStream(self)
      ? Stream.provideService(self, CurrentLane, lane)
      : Effect.provideService(self, CurrentLane, lane)) as any

/**
 * Marks every call of an effect or a stream as `batch`: it waits behind the user's interactive calls.
 *
 * @example
 * ```ts
 * import { Lane } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // The lane a call marked `batch` takes its permit in, whatever its client's own `lane`.
 * strictEqual(await Effect.runPromise(Lane.batch(Lane.current("interactive"))), "batch")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const batch = withLane("batch")

/**
 * Marks every call of an effect or a stream as `interactive` (inside a batch job, a call someone waits for).
 *
 * @example
 * ```ts
 * import { Lane } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A call a person waits for, from a client made for batch work.
 * strictEqual(await Effect.runPromise(Lane.interactive(Lane.current("batch"))), "interactive")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const interactive = withLane("interactive")

/**
 * The lane of a call: its mark, else the client's lane, else `interactive` (the core's `Lane.of`).
 *
 * @example
 * ```ts
 * import { Lane } from "@community-api/effect4-client"
 * import { Effect } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // Unmarked, a call takes the client's lane, or `interactive` when the client names none.
 * strictEqual(await Effect.runPromise(Lane.current("batch")), "batch")
 * strictEqual(await Effect.runPromise(Lane.current(undefined)), "interactive")
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const current = (clientLane: Lane | undefined): Effect.Effect<Lane> =>
  Effect.map(CurrentLane, (marked) => CoreLane.of(marked, clientLane))
