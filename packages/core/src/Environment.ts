/**
 * The names of the environment variables that configure a client, in either Effect line, each
 * written here once: every other source reads them from here (a test holds every package to that).
 *
 * @since 0.1.0
 */

/**
 * The API's base URL, ending with `/v2`.
 *
 * @since 0.1.0
 * @category constants
 */
export const baseUrl = "COMMUNITY_API_BASE_URL"

/**
 * The personal or application token.
 *
 * @since 0.1.0
 * @category constants
 */
export const token = "COMMUNITY_API_TOKEN"

/**
 * The Redis of the limiters shared with the user's other processes.
 *
 * @since 0.1.0
 * @category constants
 */
export const redisUrl = "COMMUNITY_API_REDIS_URL"
