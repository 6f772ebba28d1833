/**
 * The creation counts of the users in this process's memory: the core's book of counts, its calls run
 * at the time of this line's `Clock` (so `TestClock` drives it).
 */
import * as CreationBook from "@community-api/core/CreationBook"
import type * as Limits from "@community-api/core/Limits"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"
import { atClock } from "./clocked.js"

/** The settings with the API's limits where none is given. */
export const resolve: (settings?: CountStore.Settings) => Limits.CreationSettings = CreationBook.settingsOf

/** A store of counts with `settings`. */
export const makeStoreUnsafe = (settings: Limits.CreationSettings): CountStore.Memory => {
  const book = CreationBook.make(settings)
  return { ...CreationBook.store(book, atClock), users: Effect.sync(() => book.users()) }
}
