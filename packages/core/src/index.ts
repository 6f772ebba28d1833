/**
 * @since 0.1.0
 */

/**
 * The clock a runtime gives the reference server and the client's pacing.
 *
 * @since 0.1.0
 */
export * as Clock from "./Clock.js"
