/**
 * What the Redis store of the pacing permits does next, in either Effect line, "sans I/O": the asking
 * loop of a user, the renewal of the permits in flight, the give-back, the wait of a granted permit
 * and the withdrawal of a waiter, each as a {@link Plan} over a {@link RedisPermitBook}: the time in,
 * one {@link Step} out (a call to run, a sleep, a waiter to wake or to fail), and what the call's
 * outcome or the time after it leads to next. A line carries the steps out with its Effect (the
 * Deferreds, the fibers and the sleeps) and decides nothing itself.
 *
 * @since 0.1.0
 */
import type { Lane } from "./Lane.js"
import type { Hold } from "./PacingRule.js"
import type { Kind, TypeLambda } from "./RedisCounts.js"
import * as RedisPermitBook from "./RedisPermitBook.js"
import type * as RedisScripts from "./RedisScripts.js"

/**
 * How a call ended: Redis's reply, or the store's error (which the line makes, as its Effect's).
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome<E> =
  | { readonly _tag: "Replied"; readonly reply: RedisScripts.Reply }
  | { readonly _tag: "Failed"; readonly error: E }

/**
 * A permit handed to a waiter, as the store's `take` returns it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Permit<W> {
  readonly user: string
  readonly entry: RedisPermitBook.Entry<W>
  readonly name: string
}

/**
 * What a waiter is handed: its permit, and how long until it may be used (a permit reserved as it
 * comes back).
 *
 * @since 0.1.0
 * @category models
 */
export interface Grant<W> {
  readonly permit: Permit<W>
  readonly delayMillis: number
}

/**
 * One thing to do, and what follows it:
 *
 * - `Run`: send the call; its outcome leads to the next plan.
 * - `Sleep`: sleep `millis` (interruptibly), then the next plan.
 * - `Wake`: hand `grant` to `waiter`, then the next plan.
 * - `Fail`: fail every one of `waiters` with `error`, then the next plan.
 * - `Await`: wait until `waiter` is handed a permit or failed; what it was handed (none when failed)
 *   leads to the next plan.
 * - `Done`: nothing more.
 *
 * @since 0.1.0
 * @category models
 */
export type Step<W, E> =
  | { readonly _tag: "Run"; readonly call: RedisScripts.Call; readonly next: (outcome: Outcome<E>) => Plan<W, E> }
  | { readonly _tag: "Sleep"; readonly millis: number; readonly next: Plan<W, E> }
  | { readonly _tag: "Wake"; readonly waiter: W; readonly grant: Grant<W>; readonly next: Plan<W, E> }
  | { readonly _tag: "Fail"; readonly waiters: ReadonlyArray<W>; readonly error: E; readonly next: Plan<W, E> }
  | { readonly _tag: "Await"; readonly waiter: W; readonly next: (grant: Grant<W> | undefined) => Plan<W, E> }
  | { readonly _tag: "Done" }

/**
 * What to do from `now` on: the line reads its clock, asks the plan for the step and carries it out.
 *
 * @since 0.1.0
 * @category models
 */
export type Plan<W, E> = (now: number) => Step<W, E>

/**
 * The outcome of a call that Redis answered.
 *
 * @since 0.1.0
 * @category constructors
 */
export const replied = (reply: RedisScripts.Reply): Outcome<never> => ({ _tag: "Replied", reply })

/**
 * The outcome of a call that failed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const failed = <E>(error: E): Outcome<E> => ({ _tag: "Failed", error })

/**
 * The plans of one store's permits.
 *
 * @since 0.1.0
 * @category models
 */
export interface RedisPermitPlan<W, E> {
  /** How often the renewal turn ({@link RedisPermitPlan.renew}) runs: every third of the lease. */
  readonly renewEveryMillis: number
  /** The user's asking loop, until no one waits any more (started when `enqueue` says so). */
  readonly ask: (entry: RedisPermitBook.Entry<W>) => Plan<W, E>
  /** One renewal turn over every user in flight here. */
  readonly renew: Plan<W, E>
  /** Gives a permit back after its hold (unused by default); a failure is not reported. */
  readonly giveBack: (permit: Permit<W>, hold?: Hold) => Plan<W, E>
  /** The wait of a granted permit until it may be used and this process's own block of the user is over. */
  readonly ready: (grant: Grant<W>) => Plan<W, E>
  /** A waiter stopped waiting: out of the queue, or its permit, handed meanwhile, given back unused. */
  readonly withdraw: (entry: RedisPermitBook.Entry<W>, lane: Lane, waiter: W) => Plan<W, E>
}

const done = { _tag: "Done" } as const
const finish = () => done

/**
 * The plans over `book`, whose permits are leased for `leaseMillis`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <W, E>(
  book: RedisPermitBook.RedisPermitBook<W>,
  options: { readonly leaseMillis: number }
): RedisPermitPlan<W, E> => {
  type Entry = RedisPermitBook.Entry<W>
  type P = Plan<W, E>
  const run = (call: RedisScripts.Call, next: (outcome: Outcome<E>) => P): Step<W, E> => ({ _tag: "Run", call, next })
  const sleep = (millis: number, next: P): Step<W, E> => ({ _tag: "Sleep", millis, next })
  /** Fails every waiter of the user with the store's error (fail closed). */
  const failWaiters = (entry: Entry, error: E, next: P): Step<W, E> => ({
    _tag: "Fail",
    waiters: book.drain(entry),
    error,
    next
  })

  const release = (permit: Permit<W>, hold: Hold, next: P): P => () =>
    // Not given back (Redis gone meanwhile), the permit lapses within the lease.
    run(book.release(permit.entry, permit.name, hold), () => (now) => {
      book.settle(permit.user, now)
      return next(now)
    })
  const giveBack = (permit: Permit<W>, hold: Hold = RedisPermitBook.unused): P => release(permit, hold, finish)

  /** Gives back the permits of the user's take whose reply never came, if any is still pending. */
  const returnUnanswered = (entry: Entry, next: P, onFailure: (error: E) => P): P => (now) => {
    const pending = book.pendingReturn(entry, now)
    if (pending === undefined) return next(now)
    return run(pending.call, (outcome) =>
      outcome._tag === "Failed" ? onFailure(outcome.error) : (now) => {
        book.returned(entry, pending.unanswered, now)
        return next(now)
      })
  }

  /** Hands each granted permit to its waiter in the order asked, then `next`. */
  const wake = (entry: Entry, granted: ReadonlyArray<RedisPermitBook.Granted<W>>, index: number, next: P): P => {
    const grant = granted[index]
    if (grant === undefined) return next
    const { delayMillis, name, waiter } = grant
    const permit: Permit<W> = { user: entry.user, entry, name }
    const rest = wake(entry, granted, index + 1, next)
    // Its waiter was interrupted meanwhile: not used, the permit goes back.
    return waiter === undefined
      ? release(permit, RedisPermitBook.unused, rest)
      : () => ({ _tag: "Wake", waiter, grant: { permit, delayMillis }, next: rest })
  }

  /**
   * Asks Redis for the waiters of the user until none is left. A take whose reply never came is given
   * back before the next take (so that this process does not ask for permits past its own unused
   * ones), and first right after it failed: sent on the same connection after the take, the return
   * runs after it even when a stalled Redis runs both only when it wakes, so the permits granted then
   * go to the waiters that wait then, and to the user's other processes. Fail closed: every waiter
   * there when a call fails fails with it, so that none waits on a store that does not answer for much
   * longer than one call's timeout.
   */
  const ask = (entry: Entry): P => (now) => {
    const take = book.nextTake(entry, now)
    if (take === undefined) return done
    const again = ask(entry)
    const onFailure = (error: E): P => () =>
      failWaiters(
        entry,
        error,
        // Once more at once: after a take that failed, sent on its connection behind it.
        returnUnanswered(entry, again, (error) => () => failWaiters(entry, error, again))
      )
    const taking: P = () =>
      run(take.call, (outcome) => {
        if (outcome._tag === "Failed") {
          return (now) => {
            book.takeFailed(entry, take, now)
            return onFailure(outcome.error)(now)
          }
        }
        const { granted, sleepMillis } = book.answered(entry, take, outcome.reply)
        return wake(entry, granted, 0, sleepMillis === undefined ? again : () => sleep(sleepMillis, again))
      })
    return returnUnanswered(entry, taking, onFailure)(now)
  }

  return {
    // Every third of the lease: a renewal that fails is tried again at the next turn (the lease
    // covers two that fail).
    renewEveryMillis: options.leaseMillis / 3,
    ask,
    // One call per user renews this process's permits in flight. A take whose reply never came, not
    // yet given back (Redis was unreachable), is tried again too: its user may have no waiter left
    // here to try it, while the user's other processes wait for its permits.
    renew: (now) => {
      // Read at each turn: the users in flight now.
      const renewals = book.renewals()
      const turn = (index: number): P => {
        const renewal = renewals[index]
        if (renewal === undefined) return finish
        const next = turn(index + 1)
        const returning = returnUnanswered(renewal.entry, next, () => next)
        const { call } = renewal
        return call === undefined ? returning : () => run(call, () => returning)
      }
      return turn(0)(now)
    },
    giveBack,
    ready: ({ delayMillis, permit }) => () =>
      sleep(delayMillis, (now) => {
        const millis = book.blockedFor(permit.entry, now)
        return millis > 0 ? sleep(millis, finish) : done
      }),
    withdraw: (entry, lane, waiter) => (now) =>
      book.remove(entry, lane, waiter, now)
        ? done
        // Granted as it was interrupted: not used, the permit goes back.
        : { _tag: "Await", waiter, next: (grant) => grant === undefined ? finish : giveBack(grant.permit) }
  }
}

/**
 * What carrying out a plan needs of a line's effects, each of type `Kind<F, void>` (an effect that
 * never fails, see `RedisCounts.TypeLambda`): each step's effect, followed by the effect of what
 * comes next.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, W, E> {
  /** The effect that `make` returns when run, given the time then (the line's clock). */
  readonly suspend: (make: (now: number) => Kind<F, void>) => Kind<F, void>
  /** Sends `call`, then the effect of its outcome (a failure is an outcome: the effect never fails). */
  readonly run: (call: RedisScripts.Call, next: (outcome: Outcome<E>) => Kind<F, void>) => Kind<F, void>
  /** Sleeps `millis` (interruptibly), then `next`. */
  readonly sleep: (millis: number, next: Kind<F, void>) => Kind<F, void>
  /** Hands `grant` to `waiter`, then `next`. */
  readonly wake: (waiter: W, grant: Grant<W>, next: Kind<F, void>) => Kind<F, void>
  /** Fails each of `waiters` with `error`, then `next`. */
  readonly fail: (waiters: ReadonlyArray<W>, error: E, next: Kind<F, void>) => Kind<F, void>
  /** Waits until `waiter` is handed a permit or failed, then the effect of what it was handed (none when failed). */
  readonly wait: (waiter: W, next: (grant: Grant<W> | undefined) => Kind<F, void>) => Kind<F, void>
  /** Nothing more. */
  readonly done: Kind<F, void>
}

/**
 * How a line carries out a plan from the time it is run on, step by step, with its `effects`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const carry = <F extends TypeLambda, W, E>(effects: Effects<F, W, E>): (plan: Plan<W, E>) => Kind<F, void> => {
  const go = (plan: Plan<W, E>): Kind<F, void> =>
    effects.suspend((now) => {
      const step = plan(now)
      switch (step._tag) {
        case "Run":
          return effects.run(step.call, (outcome) => go(step.next(outcome)))
        case "Sleep":
          return effects.sleep(step.millis, go(step.next))
        case "Wake":
          return effects.wake(step.waiter, step.grant, go(step.next))
        case "Fail":
          return effects.fail(step.waiters, step.error, go(step.next))
        case "Await":
          return effects.wait(step.waiter, (grant) => go(step.next(grant)))
        case "Done":
          return effects.done
      }
    })
  return go
}
