/**
 * Tests on the live clock that fill a calendar window of the creation limit (L2, L4): 20 creations a
 * calendar minute and 200 a day from 03:00 Moscow time (00:00 UTC), counted on the clock of the
 * sandbox or of Redis, both this machine's. A run that a boundary splits counts in two windows and
 * fills neither, whatever the code under test does; on a busy machine any run can be split. So a try
 * is judged (its value returned, its failure thrown) only when what it measures began and ended in
 * one window. A try that straddled a boundary is run again in the window that has just begun, which
 * has nearly all of itself ahead; when less is left than twice what the try took, the next window is
 * waited for. The request rate (L1) needs none of this: it is a sliding window, with no boundary.
 *
 * Plain TypeScript, for the scenarios and every line's tests; each line's `test/support/Calendar.ts`
 * adds the same for an effect.
 */
import * as Limits from "@community-api/core/Limits"

/** A calendar window of the creation limit. */
export type Window = Limits.CreationWindow

/** One try of a test. */
export interface Try<Begin> {
  /** How many tries came before this one (0 for the first). */
  readonly retry: number
  /**
   * Marks where the part that must fall in one window begins, after waiting for the next window when
   * too little of this one is left (`room`, or twice what a try that straddled took). A try that never
   * calls it is judged from where it starts, with no wait.
   */
  readonly begin: Begin
}

/** How a test is tried. */
export interface Options<A> {
  /** Milliseconds of the window a try needs ahead when it begins; the next window is waited for when less is left. */
  readonly room?: number | undefined
  /** Tries in all before giving up; default 3. */
  readonly tries?: number | undefined
  /** Releases what a try that straddled a boundary gave (its processes, its sandbox). */
  readonly discard?: ((value: A) => Promise<void>) | undefined
}

const indexOf = (window: Window, at: number) => window === "minute" ? Limits.minuteOf(at) : Limits.dayOf(at)

/** Whether `startedAt` and `endedAt` fall in different windows. */
export const straddles = (window: Window, startedAt: number, endedAt: number): boolean =>
  indexOf(window, startedAt) !== indexOf(window, endedAt)

/** How long to wait at `now` for a window with at least `needed` milliseconds ahead. */
export const waitFor = (window: Window, needed: number, now: number): number => {
  const left = Limits.windowEnd(window, now) - now
  return left < needed ? left + 50 : 0
}

/**
 * What a try again needs ahead after one that straddled and took `took`: twice that, for a machine
 * as slow again; but never more than a fresh window holds, where it then begins.
 */
export const neededAfter = (window: Window, room: number, took: number): number =>
  Math.min(Math.max(room, 2 * took), (window === "minute" ? Limits.minuteMillis : Limits.dayMillis) - 1_000)

export const giveUp = (window: Window, tries: number, took: number, cause?: unknown) =>
  new Error(
    `each of ${tries} tries straddled a ${window} boundary (the last took ${took} ms): the machine is too slow for it`,
    cause === undefined ? {} : { cause }
  )

const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis))

/** Runs `attempt` until one try begins and ends in one `window` (see the top of this file). */
export const inOneWindow = async <A>(
  window: Window,
  attempt: (attempt: Try<() => Promise<void>>) => Promise<A>,
  options: Options<A> = {}
): Promise<A> => {
  const tries = options.tries ?? 3
  const room = options.room ?? 0
  let needed = room
  for (let retry = 0;; retry++) {
    let from = Date.now()
    let begun = false
    const begin = async () => {
      if (begun) return
      begun = true
      await sleep(waitFor(window, needed, Date.now()))
      from = Date.now()
    }
    const outcome = await attempt({ retry, begin }).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error })
    )
    const endedAt = Date.now()
    if (!straddles(window, from, endedAt)) {
      if (outcome.ok) return outcome.value
      throw outcome.error
    }
    if (outcome.ok) await options.discard?.(outcome.value)
    if (retry + 1 >= tries) throw giveUp(window, tries, endedAt - from, outcome.ok ? undefined : outcome.error)
    needed = neededAfter(window, room, endedAt - from)
  }
}

/**
 * {@link inOneWindow} for an effect of a line, built of its `Clock`, `Duration` and `Effect` modules
 * (their functions of the same names on both lines): its failures and defects are judged alike.
 */
export const inOneWindowOf = (
  { Clock, Duration, Effect }: { readonly Clock: any; readonly Duration: any; readonly Effect: any }
) =>
(window: Window, attempt: (attempt: Try<unknown>) => unknown, options: Omit<Options<unknown>, "discard"> = {}) => {
  const tries = options.tries ?? 3
  const room = options.room ?? 0
  const roomAt = (needed: number) =>
    Effect.flatMap(
      Clock.currentTimeMillis,
      (now: number) => Effect.sleep(Duration.millis(waitFor(window, needed, now)))
    )
  const loop = (retry: number, needed: number): any =>
    Effect.gen(function*() {
      let from: number = yield* Clock.currentTimeMillis
      let begun = false
      const begin = Effect.suspend(() => {
        if (begun) return Effect.void
        begun = true
        return Effect.andThen(roomAt(needed), Effect.map(Clock.currentTimeMillis, (now: number) => void (from = now)))
      })
      const exit = yield* Effect.exit(attempt({ retry, begin }))
      const endedAt: number = yield* Clock.currentTimeMillis
      if (!straddles(window, from, endedAt)) return yield* exit
      if (retry + 1 >= tries) return yield* Effect.die(giveUp(window, tries, endedAt - from, exit))
      return yield* loop(retry + 1, neededAfter(window, room, endedAt - from))
    })
  return loop(0, room)
}
