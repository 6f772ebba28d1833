/**
 * The community API's reference server in process, for the tests of a service on Effect 4.
 *
 * @since 0.1.0
 */

/**
 * The sandbox a program on Effect 4 embeds when no base URL is set: the reference server in this
 * process.
 *
 * @since 0.1.0
 */
export * as Embedded from "./Embedded.js"

/**
 * The reference server in process for the tests of a service on Effect 4, on the test's clock.
 *
 * @since 0.1.0
 */
export * as ReferenceServer from "./ReferenceServer.js"
