/**
 * The calendar windows of the creation limit for tests on the live clock: the plain rules
 * (`tests/client-behaviour/src/Calendar.ts`, re-exported here) and the same for an effect. The command
 * line's tests import it from here (`apps/cli/test/support/Calendar.ts`).
 */
import { Clock, Duration, Effect } from "effect"
import type { Options, Try, Window } from "../../../../../tests/client-behaviour/src/Calendar.js"
import { giveUp, neededAfter, straddles, waitFor } from "../../../../../tests/client-behaviour/src/Calendar.js"

export * from "../../../../../tests/client-behaviour/src/Calendar.js"

/** {@link inOneWindow} for an effect: its failures and defects are judged alike. */
export const inOneWindowEffect = <A, E, R>(
  window: Window,
  attempt: (attempt: Try<Effect.Effect<void>>) => Effect.Effect<A, E, R>,
  options: Omit<Options<A>, "discard"> = {}
): Effect.Effect<A, E, R> => {
  const tries = options.tries ?? 3
  const room = options.room ?? 0
  const roomAt = (needed: number) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sleep(Duration.millis(waitFor(window, needed, now))))
  const loop = (retry: number, needed: number): Effect.Effect<A, E, R> =>
    Effect.gen(function*() {
      let from = yield* Clock.currentTimeMillis
      let begun = false
      const begin = Effect.suspend(() => {
        if (begun) return Effect.void
        begun = true
        return Effect.zipRight(roomAt(needed), Effect.map(Clock.currentTimeMillis, (now) => void (from = now)))
      })
      const exit = yield* Effect.exit(attempt({ retry, begin }))
      const endedAt = yield* Clock.currentTimeMillis
      if (!straddles(window, from, endedAt)) return yield* exit
      if (retry + 1 >= tries) return yield* Effect.die(giveUp(window, tries, endedAt - from, exit))
      return yield* loop(retry + 1, neededAfter(window, room, endedAt - from))
    })
  return loop(0, room)
}
