/**
 * The whole version-2 community API as Effect Schemas.
 *
 * @since 0.1.0
 */

/**
 * The account check: what a token's account is and may do.
 *
 * @since 0.1.0
 */
export * as Account from "./Account.js"

/**
 * The values a parameter allows, read from its schema, for the command line's help and the MCP
 * server's refusals.
 *
 * @since 0.1.0
 */
export * as Allowed from "./Allowed.js"

/**
 * One tagged error per `error_code`, decoded from a wire error, with what each code means for a
 * caller.
 *
 * @since 0.1.0
 */
export * as ApiError from "./ApiError.js"

/**
 * Bots, their details and a subscriber's place in a bot.
 *
 * @since 0.1.0
 */
export * as Bot from "./Bot.js"

/**
 * The channels a community can live in.
 *
 * @since 0.1.0
 */
export * as Channel from "./Channel.js"

/**
 * Communities and their employees.
 *
 * @since 0.1.0
 */
export * as Community from "./Community.js"

/**
 * Dates on the wire: Moscow-time request dates, unix seconds in answers, and the strings of
 * `stats/*`.
 *
 * @since 0.1.0
 */
export * as Dates from "./Dates.js"

/**
 * The envelope every answer comes in, and each operation's codec from a wire body to a success or a
 * typed error and back.
 *
 * @since 0.1.0
 */
export * as Envelope from "./Envelope.js"

/**
 * Numbers of communities and subscribers, and 24-character object ids branded per kind.
 *
 * @since 0.1.0
 */
export * as Ids from "./Ids.js"

/**
 * The JSON Schema of what the wire carries, for the OpenAPI document and the MCP server's tools.
 *
 * @since 0.1.0
 */
export * as JsonSchema from "./JsonSchema.js"

/**
 * Landings.
 *
 * @since 0.1.0
 */
export * as Landing from "./Landing.js"

/**
 * The API's limits and the calendar of the creation windows.
 *
 * @since 0.1.0
 */
export * as Limits from "./Limits.js"

/**
 * Ordinary subscriber lists and their members.
 *
 * @since 0.1.0
 */
export * as List from "./List.js"

/**
 * Mailings and their status.
 *
 * @since 0.1.0
 */
export * as Mailing from "./Mailing.js"

/**
 * The OpenAPI 3.1 document of the API, built from the operation declarations.
 *
 * @since 0.1.0
 */
export * as OpenApi from "./OpenApi.js"

/**
 * The declaration of one operation: the core's plain part with the Effect Schemas of its parameters
 * and answer.
 *
 * @since 0.1.0
 */
export * as Operation from "./Operation.js"

/**
 * Every operation of the API, declared once and grouped by section.
 *
 * @since 0.1.0
 */
export * as Operations from "./Operations.js"

/**
 * Pages of list operations: `count`, `offset` and `{items, total}`.
 *
 * @since 0.1.0
 */
export * as Page from "./Page.js"

/**
 * Custom (per-subscriber) variables and community variables, with the rules for their names.
 *
 * @since 0.1.0
 */
export * as Variable from "./Variable.js"

/**
 * Building blocks for parameters as they arrive on the wire, as JSON numbers or strings of digits.
 *
 * @since 0.1.0
 */
export * as Wire from "./Wire.js"
