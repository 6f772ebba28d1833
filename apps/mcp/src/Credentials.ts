/**
 * Where the server sends its calls and with which token: the client's `Target` read from the
 * environment (`COMMUNITY_API_BASE_URL`, `COMMUNITY_API_TOKEN`, and `COMMUNITY_API_REDIS_URL` for the
 * limiters shared with the user's other processes), as the command line reads it. With no base URL the
 * calls go to an embedded sandbox with the demo data, as the demo owner unless a token is given.
 * Standard input carries the protocol, so the token comes from the environment alone.
 *
 * @since 0.1.0
 */
import * as ClientTarget from "@community-api/client/Target"

/**
 * The environment variable of the base URL (ends with `/v2`).
 *
 * @since 0.1.0
 */
export const baseUrlVariable = ClientTarget.baseUrlVariable

/**
 * The environment variable of the token.
 *
 * @since 0.1.0
 */
export const tokenVariable = ClientTarget.tokenVariable

/**
 * Where calls go.
 *
 * @since 0.1.0
 */
export type Target = ClientTarget.Target

/**
 * The environment names a base URL but no token: the server does not start.
 *
 * @since 0.1.0
 */
export type MissingToken = ClientTarget.MissingToken

/**
 * The target of the environment (read through `Config`).
 *
 * @since 0.1.0
 */
export const resolve: typeof ClientTarget.resolve = ClientTarget.resolve
