/**
 * The API's limits and the calendar arithmetic of the creation windows: the core's `Limits`, read
 * by the client's limiters and the server's counters alike.
 *
 * The day of the creation limit starts at 03:00 Moscow time. Moscow keeps UTC+3 all year, so that is
 * 00:00 UTC and both calendar windows are plain divisions of epoch milliseconds.
 *
 * @since 0.1.0
 */

/**
 * The limits' numbers, the calendar windows and the creation counter, from the core.
 *
 * @since 0.1.0
 */
export * from "@community-api/core/Limits"
