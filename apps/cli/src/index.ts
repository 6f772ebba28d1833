/**
 * The `community-api` command line: commands derived from the contract, over the client, with an
 * embedded sandbox when no base URL is configured.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Api from "./Api.js"
/** @since 0.1.0 */
export * as Cli from "./Cli.js"
/** @since 0.1.0 */
export * as Commands from "./Commands.js"
/** @since 0.1.0 */
export * as Credentials from "./Credentials.js"
/** @since 0.1.0 */
export * as ExitCode from "./ExitCode.js"
/** @since 0.1.0 */
export * as Flags from "./Flags.js"
/** @since 0.1.0 */
export * as Global from "./Global.js"
/** @since 0.1.0 */
export * as Help from "./Help.js"
/** @since 0.1.0 */
export * as KeyValue from "./KeyValue.js"
/** @since 0.1.0 */
export * as Output from "./Output.js"
/** @since 0.1.0 */
export * as Progress from "./Progress.js"
/** @since 0.1.0 */
export * as Report from "./Report.js"
/** @since 0.1.0 */
export * as Route from "./Route.js"
/** @since 0.1.0 */
export * as Run from "./Run.js"
/** @since 0.1.0 */
export * as Sandbox from "./Sandbox.js"
/** @since 0.1.0 */
export * as Session from "./Session.js"
/** @since 0.1.0 */
export * as Stdio from "./Stdio.js"
/** @since 0.1.0 */
export * as UsageError from "./UsageError.js"
