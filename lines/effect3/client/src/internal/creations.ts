/**
 * The creation counts of the users in this process's memory: the core's book of counts, its calls run
 * at the time of the Effect `Clock` (so `TestClock` drives it).
 */
import * as CreationBook from "@community-api/core/CreationBook"
import type { Limits } from "@community-api/schema"
import { Effect } from "effect"
import type * as CountStore from "../CountStore.js"
import { atClock } from "./clocked.js"

/** @internal */
export const resolve: (settings?: CountStore.Settings) => Limits.CreationSettings = CreationBook.settingsOf

/** @internal */
export const unsafeMakeStore = (settings: Limits.CreationSettings): CountStore.Memory => {
  const book = CreationBook.make(settings)
  return { ...CreationBook.store(book, atClock), users: Effect.sync(() => book.users()) }
}
