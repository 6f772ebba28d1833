/**
 * The whole version-2 community API as Effect 4 Schemas.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Account from "./Account.js"
/** @since 0.1.0 */
export * as ApiError from "./ApiError.js"
/** @since 0.1.0 */
export * as Bot from "./Bot.js"
/** @since 0.1.0 */
export * as Channel from "./Channel.js"
/** @since 0.1.0 */
export * as Community from "./Community.js"
/** @since 0.1.0 */
export * as Dates from "./Dates.js"
/** @since 0.1.0 */
export * as Envelope from "./Envelope.js"
/** @since 0.1.0 */
export * as Ids from "./Ids.js"
/** @since 0.1.0 */
export * as Landing from "./Landing.js"
/** @since 0.1.0 */
export * as List from "./List.js"
/** @since 0.1.0 */
export * as Mailing from "./Mailing.js"
/** @since 0.1.0 */
export * as OpenApi from "./OpenApi.js"
/** @since 0.1.0 */
export * as Operation from "./Operation.js"
/** @since 0.1.0 */
export * as Operations from "./Operations.js"
/** @since 0.1.0 */
export * as Page from "./Page.js"
/** @since 0.1.0 */
export * as Variable from "./Variable.js"
/** @since 0.1.0 */
export * as Wire from "./Wire.js"
