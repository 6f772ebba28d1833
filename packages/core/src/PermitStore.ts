/**
 * What a store of pacing permits is, in either Effect line: `limit` permits per user, each held from
 * its take until the {@link PacingRule.Hold} given at its release says, in the manner of the
 * `RateLimiterStore` under the `RateLimiter` of `@effect/experimental`. The pacing holds the rule (how
 * long a permit stays held after its request, {@link PacingBook}) and a store keeps the permits: this
 * process's memory ({@link PermitBook}) or Redis ({@link RedisPermitBook}), shared by every process of
 * a user.
 *
 * Every time a store takes or gives is on the store's own clock: the memory store reads its line's
 * clock, the Redis store the Redis server's `TIME`, never a caller's clock.
 *
 * @since 0.1.0
 */
import type { Lane } from "./Lane.js"
import type * as PacingRule from "./PacingRule.js"

/**
 * A permit taken from a store. Only the store that gave it reads it: a store gives its own permits,
 * with whatever it needs to take them back, and the pacing hands each back to its store unread.
 *
 * @since 0.1.0
 * @category models
 */
export interface Permit {
  /** The user the permit was taken for. */
  readonly user: string
}

/**
 * Settings of a store of permits.
 *
 * @since 0.1.0
 * @category options
 */
export interface Settings {
  /** Requests allowed in one window; default 30. */
  readonly limit?: number | undefined
}

/**
 * A store of pacing permits, over a line's effects: `Take` gives a {@link Permit}, `Release` does not
 * fail, `Requests` gives a user's budget, `Block` waits for the store. How the store fails is in its
 * effects' types (nothing for the memory store); the pacing passes it on to the request, which then is
 * not sent.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store<Take, Release, Requests, Block> {
  /** Permits per user: at most this many requests of a user are held at once. */
  readonly limit: number
  /**
   * Waits until a permit of `user` is free and the user is not blocked, and takes it. Interrupted
   * while waiting, it takes nothing. A call of the `interactive` lane (the default) is served ahead of
   * every waiting call of the `batch` lane; a store that knows no lanes may serve both in turn.
   */
  readonly take: (user: string, lane?: Lane) => Take
  /**
   * Gives `permit` back after its answer: it stays held until `max(now + afterAnswerMillis,
   * takenAt + afterTakeMillis)` on the store's clock. Does not wait for the store: the answer is
   * the caller's at once.
   */
  readonly release: (permit: Permit, hold: PacingRule.Hold) => Release
  /**
   * What is left of the rate window of `user` now: the permits taken or held back, the free ones, and
   * when the next held one comes back.
   */
  readonly budget: (user: string) => Requests
  /** No permit of `user` is taken for `millis` from now (the server refused a request for the rate). */
  readonly block: (user: string, millis: number) => Block
}
