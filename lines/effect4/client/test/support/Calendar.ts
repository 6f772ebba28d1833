/**
 * Tests on the live clock that fill a calendar window of the creation limit (L2, L4) are judged only
 * when what they measure began and ended in one window; a try that straddled a boundary is run again
 * in the window that has just begun (`tests/client-behaviour/src/Calendar.ts`, for an effect of this line).
 */
import { Clock, Duration, Effect } from "effect"
import type { Options, Try, Window } from "../../../../../tests/client-behaviour/src/Calendar.js"
import { inOneWindowOf } from "../../../../../tests/client-behaviour/src/Calendar.js"

export type { Window }

/** Runs `attempt` until one try begins and ends in one `window`, its failures and defects judged alike. */
export const inOneWindowEffect = inOneWindowOf({ Clock, Duration, Effect }) as <A, E, R>(
  window: Window,
  attempt: (attempt: Try<Effect.Effect<void>>) => Effect.Effect<A, E, R>,
  options?: Omit<Options<A>, "discard">
) => Effect.Effect<A, E, R>
