/**
 * The Effect-native client of the version-2 community API.
 *
 * @since 0.1.0
 */

/**
 * What is left of a user's limits and when it comes back, and the JSON shown of it.
 *
 * @since 0.1.0
 */
export * as Budget from "./Budget.js"

/**
 * The client's own errors beside the API's: transport, decoding, quota, store, unknown outcome, configuration.
 *
 * @since 0.1.0
 */
export * as ClientError from "./ClientError.js"

/**
 * The client: one method per operation of the API, grouped by section, with its layers.
 *
 * @since 0.1.0
 */
export * as CommunityApiClient from "./CommunityApiClient.js"

/**
 * Where the creation counts of every user are kept: this process's memory, or Redis.
 *
 * @since 0.1.0
 */
export * as CountStore from "./CountStore.js"

/**
 * The creation quota: 20 creations a minute and 200 a day per user, counted before a creation is sent.
 *
 * @since 0.1.0
 */
export * as CreationQuota from "./CreationQuota.js"

/**
 * Priority lanes: `interactive` calls take the next pacing permit ahead of `batch` calls.
 *
 * @since 0.1.0
 */
export * as Lane from "./Lane.js"

/**
 * The client's metrics (calls, retries, pacing waits and permits held, refusals), as Effect `Metric`s.
 *
 * @since 0.1.0
 */
export * as Metrics from "./Metrics.js"

/**
 * The pacing of a user's requests under the rate limit of 30 a second.
 *
 * @since 0.1.0
 */
export * as Pacing from "./Pacing.js"

/**
 * The pages of a list operation, and every item of it, as a `Stream`.
 *
 * @since 0.1.0
 */
export * as Paginate from "./Paginate.js"

/**
 * Where the pacing permits of every user are kept: this process's memory, or Redis.
 *
 * @since 0.1.0
 */
export * as PermitStore from "./PermitStore.js"

/**
 * The Redis store of the limiters, shared by every process of a user.
 *
 * @since 0.1.0
 */
export * as RedisStore from "./RedisStore.js"

/**
 * When the client sends a request again, and the schedule it waits on.
 *
 * @since 0.1.0
 */
export * as Retry from "./Retry.js"

/**
 * Where a program's calls go, read from the environment (a real API or the embedded sandbox), and its client.
 *
 * @since 0.1.0
 */
export * as Target from "./Target.js"
