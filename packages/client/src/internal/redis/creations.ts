/**
 * The creation counts over Redis: every operation of `CountStore.Service` is one run of the count
 * script (see `scripts.ts`), which does what `Limits` does in memory.
 *
 * @internal
 */
import { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../../CountStore.js"
import type { Connection } from "./connection.js"
import { keysOf, type Reply } from "./scripts.js"

/**
 * The creation counts in Redis.
 *
 * @internal
 */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): CountStore.Service => {
  const count = (user: string, mode: string, extra: ReadonlyArray<string | number> = []) =>
    connection.run("creation quota", "communityApiCountCreations", [keysOf(connection.prefix, user).creations], [
      mode,
      settings.perMinute,
      settings.perDay,
      Limits.minuteMillis,
      Limits.dayMillis,
      Limits.dayStartOffsetMillis,
      ...extra
    ])
  const verdict = (reply: Reply): CountStore.Verdict =>
    reply[0] === 1
      ? { _tag: "Taken", at: Number(reply[1]) }
      : {
        _tag: "Exhausted",
        window: reply[1] === "day" ? "day" : "minute",
        resetsAt: Number(reply[2]),
        now: Number(reply[3])
      }
  return {
    take: (user) => Effect.map(count(user, "take"), verdict),
    retake: (user, taken) => Effect.map(count(user, "retake", [taken]), verdict),
    refund: (user, taken) => Effect.asVoid(count(user, "refund", [taken])),
    exhaust: (user, window) => Effect.asVoid(count(user, "exhaust", [window])),
    usedUp: (user) =>
      Effect.map(count(user, "usedUp"), ([window]) => window === "minute" || window === "day" ? window : undefined)
  }
}
