/**
 * The creation counts of the users in this process's memory: the core's book of counts, read at the
 * time of the Effect `Clock` (so `TestClock` drives it).
 */
import * as CreationBook from "@community-api/core/CreationBook"
import type { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"

/** @internal */
export const resolve = (settings: CountStore.Settings = {}): Limits.CreationSettings =>
  CreationBook.settingsOf(settings)

/** @internal */
export const unsafeMakeStore = (settings: Limits.CreationSettings): CountStore.Memory => {
  const book = CreationBook.make(settings)
  const withNow = <A>(f: (now: number) => A): Effect.Effect<A> =>
    Effect.clockWith((clock) => Effect.sync(() => f(clock.unsafeCurrentTimeMillis())))
  return {
    take: (user) => withNow((now) => book.take(user, now)),
    retake: (user, taken) => withNow((now) => book.retake(user, taken, now)),
    refund: (user, taken) => withNow((now) => book.refund(user, taken, now)),
    exhaust: (user, window) => withNow((now) => book.exhaust(user, window, now)),
    usedUp: (user) => withNow((now) => book.usedUp(user, now)),
    budget: (user) => withNow((now) => book.budget(user, now)),
    users: Effect.sync(() => book.users())
  }
}
