/**
 * The reference server of the version-2 community API: in memory, in process or on a port.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as DemoFixture from "./DemoFixture.js"
/** @since 0.1.0 */
export * as Embedded from "./Embedded.js"
/** @since 0.1.0 */
export * as Faults from "./Faults.js"
/** @since 0.1.0 */
export * as Fixture from "./Fixture.js"
/** @since 0.1.0 */
export * as InProcess from "./InProcess.js"
/** @since 0.1.0 */
export * as ReferenceServer from "./ReferenceServer.js"
/** @since 0.1.0 */
export * as Sandbox from "./Sandbox.js"
/** @since 0.1.0 */
export * as SeededRandom from "./SeededRandom.js"
