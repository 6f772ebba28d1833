/**
 * The reference server of the version-2 community API: in memory, in process or on a port.
 *
 * @since 0.1.0
 */

/**
 * The built-in demo data and the notable objects of it that tests name.
 *
 * @since 0.1.0
 */
export * as DemoFixture from "./DemoFixture.js"

/**
 * The sandbox a program embeds when no base URL is set: the reference server in this process.
 *
 * @since 0.1.0
 */
export * as Embedded from "./Embedded.js"

/**
 * Faults the reference server can inject: errors, latency, dropped connections.
 *
 * @since 0.1.0
 */
export * as Faults from "./Faults.js"

/**
 * The fixture format: everything the reference server holds, as one JSON document.
 *
 * @since 0.1.0
 */
export * as Fixture from "./Fixture.js"

/**
 * An `HttpClient` whose requests go straight into an `HttpApp`, with no socket.
 *
 * @since 0.1.0
 */
export * as InProcess from "./InProcess.js"

/**
 * The reference server: in process, on a port or as a web handler, with its control service.
 *
 * @since 0.1.0
 */
export * as ReferenceServer from "./ReferenceServer.js"

/**
 * The sandbox: the reference server on a port with the demo data, a banner and a log line per
 * request.
 *
 * @since 0.1.0
 */
export * as Sandbox from "./Sandbox.js"

/**
 * A small seeded generator of numbers in [0, 1), for faults that repeat with their seed.
 *
 * @since 0.1.0
 */
export * as SeededRandom from "./SeededRandom.js"
