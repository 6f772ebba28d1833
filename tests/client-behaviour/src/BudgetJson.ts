/**
 * The JSON of budgets read from the memory limiters in one scene, which the `Budgets` scenario holds
 * each line's `Budget.toJson` and `Budget.Json` to: the same fields and values (the command line's
 * `limits --json` and the MCP tool `limits_get` show this JSON).
 *
 * The scene, on the world's clock: at 2026-11-26 17:59:30 UTC (20:59:30 Moscow), user `u` has two
 * requests answered at once and five creations of this minute, and asks whether 40 more fit by
 * 18:00:30; user `w` has one request waiting for its answer and asks whether 20 creations fit by
 * 17:59:45.
 */

/** When the scene happens: 2026-11-26 17:59:30 UTC. */
export const at = Date.UTC(2026, 10, 26, 17, 59, 30)

/** The user with answered requests and creations, and their counts. */
export const answered = { user: "u", requests: 2, creations: 5 } as const

/** The question `u` asks: 40 more creations by 18:00:30. */
export const answeredAsks = { creations: 40, by: Date.UTC(2026, 10, 26, 18, 0, 30) } as const

/** The user whose one request waits for its answer. */
export const waiting = { user: "w" } as const

/** The question `w` asks: 20 creations by 17:59:45. */
export const waitingAsks = { creations: 20, by: Date.UTC(2026, 10, 26, 17, 59, 45) } as const

const creationsLeft = (used: number) => ({
  minute: { used, limit: 20, left: 20 - used, resets_at: "2026-11-26T18:00:00.000Z" },
  day: { used, limit: 200, left: 200 - used, resets_at: "2026-11-27T00:00:00.000Z" }
})

/**
 * `u`'s budget: each request holds its permit a window and the margin past its answer; 15 creations
 * fit this minute and 20 at 18:00, so the 40th is sent at 18:01, after the deadline.
 */
export const answeredJson = {
  limiters: "memory",
  requests: { used: 2, limit: 30, left: 28, resets_at: "2026-11-26T17:59:31.020Z" },
  creations: creationsLeft(5),
  estimate: { creations: 40, by: "2026-11-26T18:00:30.000Z", in_time: false, last_at: "2026-11-26T18:01:00.000Z" }
} as const

/** `u`'s budget when nothing is asked: no `estimate` at all. */
export const answeredJsonUnasked = {
  limiters: answeredJson.limiters,
  requests: answeredJson.requests,
  creations: answeredJson.creations
} as const

/**
 * `w`'s budget: when its permit comes back is not known before the answer (`resets_at` null); all 20
 * creations fit now.
 */
export const waitingJson = {
  limiters: "memory",
  requests: { used: 1, limit: 30, left: 29, resets_at: null },
  creations: creationsLeft(0),
  estimate: { creations: 20, by: "2026-11-26T17:59:45.000Z", in_time: true, last_at: "2026-11-26T17:59:30.000Z" }
} as const
