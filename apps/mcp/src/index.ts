/**
 * `community-api-mcp`: an MCP server (tools for an assistant) over the community API client, its tools
 * derived from the contract, with an embedded sandbox when no base URL is configured.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Action from "./Action.js"
/** @since 0.1.0 */
export * as Advice from "./Advice.js"
/** @since 0.1.0 */
export * as Answer from "./Answer.js"
/** @since 0.1.0 */
export * as Credentials from "./Credentials.js"
/** @since 0.1.0 */
export * as Handlers from "./Handlers.js"
/** @since 0.1.0 */
export * as InputSchema from "./InputSchema.js"
/** @since 0.1.0 */
export * as Server from "./Server.js"
/** @since 0.1.0 */
export * as Session from "./Session.js"
/** @since 0.1.0 */
export * as Tools from "./Tools.js"
