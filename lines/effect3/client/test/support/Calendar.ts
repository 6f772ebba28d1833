/**
 * The calendar windows of the creation limit for tests on the live clock: the plain rules
 * (`tests/client-behaviour/src/Calendar.ts`, re-exported here) and the same for an effect. The command
 * line's tests import it from here (`apps/cli/test/support/Calendar.ts`).
 */
import { Clock, Duration, Effect } from "effect"
import type { Options, Try, Window } from "../../../../../tests/client-behaviour/src/Calendar.js"
import { inOneWindowOf } from "../../../../../tests/client-behaviour/src/Calendar.js"

export * from "../../../../../tests/client-behaviour/src/Calendar.js"

/** {@link inOneWindow} for an effect: its failures and defects are judged alike. */
export const inOneWindowEffect = inOneWindowOf({ Clock, Duration, Effect }) as <A, E, R>(
  window: Window,
  attempt: (attempt: Try<Effect.Effect<void>>) => Effect.Effect<A, E, R>,
  options?: Omit<Options<A>, "discard">
) => Effect.Effect<A, E, R>
