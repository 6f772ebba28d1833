/**
 * The Effect 3 line's `Calendar.ts` (`lines/effect3/client/test/support/Calendar.ts`) for an effect of this
 * line: tests on the live clock that fill a calendar window of the creation limit (L2, L4) are judged
 * only when what they measure began and ended in one window; a try that straddled a boundary is run
 * again in the window that has just begun. The promise form and the rules of the wait are the Effect 3
 * line's (they hold no Effect value), imported from there.
 */
import * as Limits from "@community-api/core/Limits"
import { Clock, Duration, Effect } from "effect"
import * as Shared from "../../../../effect3/client/test/support/Calendar.js"

export type Window = Shared.Window

/** One try of a test. */
export interface Try {
  /** How many tries came before this one (0 for the first). */
  readonly retry: number
  /** Marks where the part that must fall in one window begins (see the Effect 3 line's `Try`). */
  readonly begin: Effect.Effect<void>
}

/** Milliseconds a try needs ahead after one that straddled and took `took`. */
const neededAfter = (window: Window, room: number, took: number): number =>
  Math.min(Math.max(room, 2 * took), (window === "minute" ? Limits.minuteMillis : Limits.dayMillis) - 1_000)

/** Runs `attempt` until one try begins and ends in one `window`, its failures and defects judged alike. */
export const inOneWindowEffect = <A, E, R>(
  window: Window,
  attempt: (attempt: Try) => Effect.Effect<A, E, R>,
  options: { readonly room?: number | undefined; readonly tries?: number | undefined } = {}
): Effect.Effect<A, E, R> => {
  const tries = options.tries ?? 3
  const room = options.room ?? 0
  const roomAt = (needed: number) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sleep(Duration.millis(Shared.waitFor(window, needed, now))))
  const loop = (retry: number, needed: number): Effect.Effect<A, E, R> =>
    Effect.gen(function*() {
      let from = yield* Clock.currentTimeMillis
      let begun = false
      const begin = Effect.suspend(() => {
        if (begun) return Effect.void
        begun = true
        return Effect.andThen(roomAt(needed), Effect.map(Clock.currentTimeMillis, (now) => void (from = now)))
      })
      const exit = yield* Effect.exit(attempt({ retry, begin }))
      const endedAt = yield* Clock.currentTimeMillis
      if (!Shared.straddles(window, from, endedAt)) return yield* exit
      if (retry + 1 >= tries) {
        return yield* Effect.die(
          new Error(`each of ${tries} tries straddled a ${window} boundary (the last took ${endedAt - from} ms)`)
        )
      }
      return yield* loop(retry + 1, neededAfter(window, room, endedAt - from))
    })
  return loop(0, room)
}
