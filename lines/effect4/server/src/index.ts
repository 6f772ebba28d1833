/**
 * The community API's reference server in process, for the tests of a service on Effect 4.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Embedded from "./Embedded.js"

/** @since 0.1.0 */
export * as ReferenceServer from "./ReferenceServer.js"
