/**
 * The creation counts of the users in this process's memory: the core's book of counts, its calls run
 * at the time of the Effect `Clock` (so `TestClock` drives it).
 */
import * as CreationBook from "@community-api/core/CreationBook"
import type * as Timed from "@community-api/core/Timed"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"

/** A call run at the current time: an effect that reads the `Clock` when it runs. */
interface AtClock extends Timed.Lambda {
  readonly type: Effect.Effect<this["A"]>
}

/** @internal */
export const unsafeMakeStore = (settings?: CountStore.Settings): CountStore.Memory =>
  CreationBook.store<AtClock>(
    CreationBook.make(CreationBook.settingsOf(settings)),
    (call) => Effect.clockWith((clock) => Effect.sync(() => call(clock.unsafeCurrentTimeMillis())))
  )
