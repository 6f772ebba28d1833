/**
 * Synchronous effects for the core's assemblies over a line's effects (`CreationQuota.service`,
 * `Admission.paced` and `counted`, `PacingBook.shape` and `sweeper`, `PermitBook.store`): an effect
 * is a function that, run, gives its value or its error; its sleeps move a manual clock and its logs,
 * draws and counted refusals are written to `log`.
 */
import type * as Admission from "../../src/Admission.js"
import type * as CreationQuota from "../../src/CreationQuota.js"
import type * as PermitBook from "../../src/PermitBook.js"
import type * as RedisPermitStore from "../../src/RedisPermitStore.js"

export type Result<A, E> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: E }

/** A synchronous effect of `A` failing with `E`. */
export type Sync<A, E = never> = () => Result<A, E>

export interface F extends RedisPermitStore.TypeLambda {
  readonly type: Sync<this["A"], this["E"]>
}

export const succeed = <A>(value: A): Sync<A> => () => ({ ok: true, value })

/** An effect that writes `entry` to `log`, then gives `value`. */
export const logged = <A>(log: Array<string>, entry: string, value: A): Sync<A> => () => {
  log.push(entry)
  return { ok: true, value }
}

/** The error of a refused creation, as a line's `CreationQuotaExceeded`. */
export interface Exceeded {
  readonly _tag: "CreationQuotaExceeded"
  readonly operation: string
  readonly window: string
  readonly resetsAt: string
}

/** The effects over a manual clock at `now.millis`; every draw is `draw`. */
export const effects = (
  log: Array<string>,
  now: { millis: number },
  draw = 0
): Admission.Effects<F> & CreationQuota.Line<F, string, number, Exceeded> => ({
  map: (self, f) => () => {
    const result = self()
    return result.ok ? { ok: true, value: f(result.value) } : result
  },
  flatMap: (self, f) => () => {
    const result = self()
    return result.ok ? f(result.value)() : result
  },
  succeed,
  sync: (f) => () => ({ ok: true, value: f() }),
  fail: (error) => () => ({ ok: false, error }),
  void: succeed(undefined),
  sleep: (millis) => () => {
    log.push(`sleep ${millis}`)
    now.millis += millis
    return { ok: true, value: undefined }
  },
  idle: (millis) => () => {
    log.push(`idle ${millis}`)
    now.millis += millis
    return { ok: true, value: undefined }
  },
  clock: () => ({ ok: true, value: now.millis }),
  catchIf: (self, test, f) => () => {
    const result = self()
    return result.ok || !test(result.error) ? result : f()()
  },
  draw: (max) => logged(log, `draw below ${max}`, draw),
  refused: (refusal) => logged(log, `refused ${refusal}`, undefined),
  logged: (self, say, otherwise) => () => {
    const result = self()
    if (result.ok) return result
    log.push(`debug: ${say(result.error)}`)
    return { ok: true, value: otherwise }
  },
  instant: (millis) => new Date(millis).toISOString(),
  exceeded: (operation, window, resetsAt) => ({ _tag: "CreationQuotaExceeded", operation, window, resetsAt }),
  epochMillis: (deadline) => deadline
})

/** A waiter of the memory store: woken or not yet. */
export interface Waiter {
  woken: boolean
}

/**
 * The effects of a memory store of permits over the manual clock: a hold is a timer noted in
 * `timers`; a wait runs the timers due first, moving the clock to each, until its waiter is woken.
 * Nothing is interrupted here: a guard never runs its cleanup, and a mask restores as it is.
 */
export const memory = (log: Array<string>, now: { millis: number }) => {
  const timers: Array<{ readonly until: number; readonly due: (now: number) => void }> = []
  const effectsOf: PermitBook.Effects<F, Waiter> = {
    ...effects(log, now),
    waiter: () => ({ woken: false }),
    await: (waiter) => () => {
      while (!waiter.woken) {
        timers.sort((a, b) => a.until - b.until)
        const timer = timers.shift()
        if (timer === undefined) throw new Error("a waiter that nothing wakes")
        now.millis = Math.max(now.millis, timer.until)
        timer.due(now.millis)
      }
      log.push("woken")
      return { ok: true, value: undefined }
    },
    guard: (self) => self,
    mask: (body) => body((self) => self),
    holdUntil: (until, due) => () => {
      log.push(`hold until ${until}`)
      timers.push({ until, due })
      return { ok: true, value: undefined }
    }
  }
  return { effects: effectsOf, timers }
}
