/**
 * The pacing permits of every user in one process, "sans I/O": what the memory store of either Effect
 * line decides, with the time passed in and the decisions handed back, so that the lines only carry
 * them out (a waiter is woken with a line's own deferred value, a hold is slept on a line's timer).
 *
 * Per user, `limit` permits and the calls waiting for one by lane ({@link PermitQueue}): a permit
 * that comes back goes straight to the first interactive waiter, else to the first batch waiter. A
 * permit is taken before its request is sent and comes back once its hold has passed
 * ({@link PacingRule.heldUntil}): the line's timer says when, {@link PermitBook.returned} does the
 * rest. After the server refused a request for the rate, every take of the user waits out the block.
 *
 * A user's entry leaves memory once none of its permits is taken, waited for or held and no block of it
 * lasts ({@link UserTable}): memory follows the users active now.
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import type * as CreationQuota from "./CreationQuota.js"
import type { Lane } from "./Lane.js"
import { heldUntil, type Hold } from "./PacingRule.js"
import * as PermitQueue from "./PermitQueue.js"
import type * as PermitStore from "./PermitStore.js"
import type { Effects as RedisEffects, Kind, TypeLambda } from "./RedisPermitStore.js"
import * as UserTable from "./UserTable.js"

/** The permits of one user. */
interface Gate<W> {
  readonly queue: PermitQueue.PermitQueue<W>
  /** Takes begun (waiting or holding a permit) whose permit has not come back yet. */
  active: number
  /** Permits taken whose permit has not come back yet. */
  held: number
  /** When the permits given back and held come back, in the order given back. */
  readonly returns: Array<number>
  blockedUntil: number
}

/**
 * One call's take of a permit, from {@link PermitBook.begin} until its permit is back.
 *
 * @since 0.1.0
 * @category models
 */
export interface Take<W> {
  readonly user: string
  readonly lane: Lane
  /** Whether it had a permit at once; otherwise its waiter is queued, to be handed one. */
  readonly granted: boolean
  /** @internal */
  readonly waiter: W
  /** @internal */
  readonly gate: Gate<W>
}

/**
 * A permit of the book as a line's memory store hands it out: its take, and when its request was sent
 * (after any block, on the store's clock), for {@link PermitBook.release}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Permit<W> extends PermitStore.Permit {
  readonly take: Take<W>
  readonly takenAt: number
}

/**
 * The permits of every user in this process. Each method that frees a permit returns the waiter it
 * now goes to, for the line to wake, or `undefined` (and hands it to the book's `wake`, if any).
 *
 * @since 0.1.0
 * @category models
 */
export interface PermitBook<W> {
  readonly limit: number
  /** A call of `user` in `lane` asks for a permit at `now`: granted at once, or `waiter` queued. */
  readonly begin: (user: string, lane: Lane, waiter: W, now: number) => Take<W>
  /**
   * A queued take stopped waiting (its call was interrupted). When it had been handed a permit in the
   * meantime, the permit goes on to the next waiter.
   */
  readonly stopWaiting: (take: Take<W>, now: number) => W | undefined
  /** How long a take that has its permit must still wait before its request is sent: a block of the user. */
  readonly blockedFor: (take: Take<W>, now: number) => number
  /** A take that has its permit ends unused (its call was interrupted before sending): the permit is back. */
  readonly abandon: (take: Take<W>, now: number) => W | undefined
  /**
   * The answer came at `now` to the request sent at `takenAt`: when the permit comes back, for the
   * line's timer to call {@link PermitBook.returned} then.
   */
  readonly release: (take: Take<W>, takenAt: number, hold: Hold, now: number) => number
  /** The hold of a released permit (`until`, as {@link PermitBook.release} gave it) has passed: it is back. */
  readonly returned: (take: Take<W>, until: number, now: number) => W | undefined
  /** After a refusal for the rate: no take of `user` sends before `millis` from `now`. */
  readonly block: (user: string, millis: number, now: number) => void
  /** What is left of the user's requests at `now`, and when the next permit comes back. */
  readonly budget: (user: string, now: number) => Budget.Requests
  /** The users kept in memory. */
  readonly users: () => number
}

/**
 * A book of `limit` permits per user. `onWaiting` hears each change of the number of waiters across
 * every user (a line's timers keep a process alive only while a call waits for a permit); `wake`, if
 * given, is handed each waiter a freed permit goes to (a line completes its deferred value).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <W>(options: {
  readonly limit: number
  readonly onWaiting?: ((change: 1 | -1) => void) | undefined
  readonly wake?: ((waiter: W) => void) | undefined
}): PermitBook<W> => {
  const { limit, wake } = options
  const onWaiting = options.onWaiting ?? (() => {})
  const gates = UserTable.make<Gate<W>>({
    create: () => ({ queue: PermitQueue.make(limit), active: 0, held: 0, returns: [], blockedUntil: 0 }),
    isIdle: (gate, now) => gate.active === 0 && gate.blockedUntil <= now
  })
  /** One take ended: its permit came back, or it stopped waiting. */
  const ended = (take: Take<W>, now: number) => {
    take.gate.active--
    gates.settle(take.user, now)
  }
  /** A permit of `gate` is back (or was never used): to the next waiter, or free. */
  const back = (gate: Gate<W>, until?: number): W | undefined => {
    gate.held--
    if (until !== undefined) gate.returns.splice(gate.returns.indexOf(until), 1)
    const next = gate.queue.give()
    if (next !== undefined) {
      onWaiting(-1)
      gate.held++
      wake?.(next)
    }
    return next
  }
  return {
    limit,
    begin: (user, lane, waiter, now) => {
      const gate = gates.get(user, now)
      gate.active++
      const granted = gate.queue.take(lane, waiter)
      if (granted) gate.held++
      else onWaiting(1)
      return { user, lane, granted, waiter, gate }
    },
    stopWaiting: (take, now) => {
      let next: W | undefined
      if (take.gate.queue.remove(take.lane, take.waiter)) onWaiting(-1)
      else next = back(take.gate)
      ended(take, now)
      return next
    },
    blockedFor: (take, now) => Math.max(0, take.gate.blockedUntil - now),
    abandon: (take, now) => {
      const next = back(take.gate)
      ended(take, now)
      return next
    },
    release: (take, takenAt, hold, now) => {
      const until = heldUntil(hold, takenAt, now)
      take.gate.returns.push(until)
      return until
    },
    returned: (take, until, now) => {
      const next = back(take.gate, until)
      ended(take, now)
      return next
    },
    block: (user, millis, now) => {
      const gate = gates.get(user, now)
      gate.blockedUntil = Math.max(gate.blockedUntil, now + millis)
    },
    budget: (user, now) => {
      const gate = gates.peek(user)
      return Budget.requests({
        limit,
        held: gate?.held ?? 0,
        nextBackAt: gate === undefined || gate.returns.length === 0 ? undefined : Math.min(...gate.returns),
        blockedUntil: gate?.blockedUntil ?? 0,
        now
      })
    },
    users: () => gates.size()
  }
}

/**
 * What a memory store of permits needs of a line's effects (`F`, as `RedisPermitStore.Kind` reads
 * them) for its waiters `W`: those the Redis store needs too, and a hold on the line's timer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Effects<F extends TypeLambda, W>
  extends
    Pick<RedisEffects<F, W, never>, "clock" | "flatMap" | "map" | "void" | "sleep" | "waiter" | "guard" | "mask">,
    Pick<CreationQuota.Effects<F, unknown>, "sync">
{
  /** Waits until `waiter` is woken. */
  readonly await: (waiter: W) => Kind<F, void, never>
  /** Has `due` called at `until` (or later) on the store's timer, with the time then; does not wait. */
  readonly holdUntil: (until: number, due: (now: number) => void) => Kind<F, void, never>
}

/**
 * A store of permits in memory over a line's effects (see `PermitStore.Store`), with `users`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Store<F extends TypeLambda> extends
  PermitStore.Store<
    Kind<F, PermitStore.Permit, never>,
    Kind<F, void, never>,
    Kind<F, Budget.Requests, never>,
    Kind<F, void, never>
  >
{
  readonly users: Kind<F, number, never>
}

/**
 * The memory store of `book` in a line's effects: a take begins in the book with a new waiter and waits
 * for it unless granted at once (interrupted, it takes nothing; a permit handed over goes on), waits
 * out a block of the user, and is timed from when the request is about to be sent; a release is given
 * back by the line's timer once its hold has passed, so that the caller's answer is not delayed by it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const store = <F extends TypeLambda, W>(effects: Effects<F, W>, book: PermitBook<W>): Store<F> => {
  const { clock, flatMap, map } = effects
  const permitOf = (take: Take<W>): Kind<F, void, never> =>
    take.granted
      ? effects.void
      : effects.guard(effects.await(take.waiter), () => map(clock, (now) => book.stopWaiting(take, now)))
  const sendAt = (take: Take<W>): Kind<F, number, never> =>
    flatMap(clock, (now) => {
      const millis = book.blockedFor(take, now)
      return millis > 0 ? flatMap(effects.sleep(millis), () => clock) : clock
    })
  return {
    limit: book.limit,
    users: effects.sync(book.users),
    take: (user, lane = "interactive") =>
      effects.mask((restore) =>
        flatMap(clock, (now) => {
          const take = book.begin(user, lane, effects.waiter(), now)
          const sent = effects.guard(restore(sendAt(take)), () => map(clock, (now) => book.abandon(take, now)))
          return flatMap(restore(permitOf(take)), () => map(sent, (takenAt): Permit<W> => ({ user, take, takenAt })))
        })
      ),
    release: (permit, hold) =>
      flatMap(clock, (now) => {
        const { take, takenAt } = permit as Permit<W>
        const until = book.release(take, takenAt, hold, now)
        return effects.holdUntil(until, (due) => book.returned(take, until, due))
      }),
    budget: (user) => map(clock, (now) => book.budget(user, now)),
    block: (user, millis) => map(clock, (now) => book.block(user, millis, now))
  }
}
