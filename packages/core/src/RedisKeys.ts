/**
 * The layout of the keys of the Redis store of the limiters. Every process of a user, on either Effect
 * line, must build the same keys from the same prefix and user key to share the user's limits on one
 * Redis: a change here is a change to what every process of a user shares.
 *
 * @since 0.1.0
 */

/**
 * The prefix of every key when the options name none.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultPrefix = "community-api:"

/**
 * The keys of one user.
 *
 * @since 0.1.0
 * @category models
 */
export interface Keys {
  /** A sorted set of the pacing permits in flight, scored by when their lease lapses. */
  readonly inFlight: string
  /** A sorted set of the pacing permits given back, scored by when they come back. */
  readonly given: string
  /** Until when every take of the user is blocked (after a refusal for the rate). */
  readonly blocked: string
  /** When an interactive call of the user last found no free permit (the lanes' share). */
  readonly interactiveWaited: string
  /** A hash of the creation counts of the current calendar minute and day. */
  readonly creations: string
}

/**
 * The keys of `user` under `prefix`: a hash tag around the user key keeps them in one slot of a
 * cluster, so that one script can touch them all.
 *
 * @since 0.1.0
 * @category constructors
 */
export const keysOf = (prefix: string, user: string): Keys => {
  const base = `${prefix}{${user}}`
  return {
    inFlight: `${base}:permits:in-flight`,
    given: `${base}:permits:given-back`,
    blocked: `${base}:blocked`,
    interactiveWaited: `${base}:permits:interactive-waited`,
    creations: `${base}:creations`
  }
}
