/**
 * The pacing service of either Effect line, "sans I/O": its settings resolved from the options, and
 * the pacing rule of every user in one process ({@link PacingRule}), with the time passed in and the
 * decisions handed back. A store keeps the permits (this process's memory or Redis); this book decides
 * how long each stays held after its request, and the line carries it out (takes and gives back with
 * its store, sweeps with its own fiber).
 *
 * A call of a user {@link PacingBook.begin}s before it asks its store for a permit, says when it
 * {@link PacingBook.taken} one, when its answer came ({@link PacingBook.answered}, which gives the
 * permit's hold) and when it ended ({@link PacingBook.settle}). A refusal for the rate (error 5)
 * forgets what the user's rule learnt and blocks the user's takes ({@link PacingBook.refused}).
 *
 * A user's rule leaves memory a window and the margin after its last call ended ({@link UserTable}),
 * so that calls one after another keep what it learnt of their delays; a user who comes back later
 * learns again, with the full hold until then. One sweeper (a line's fiber) drops the idle rules while
 * there are any, so that they leave even when no call comes: the book says when to start it and
 * whether it goes on.
 *
 * @since 0.1.0
 */
import * as Budget from "./Budget.js"
import type * as CreationQuota from "./CreationQuota.js"
import * as PacingRule from "./PacingRule.js"
import * as PermitStore from "./PermitStore.js"
import type { Kind, TypeLambda } from "./RedisPermitStore.js"
import * as UserTable from "./UserTable.js"

/**
 * Settings of a pacing, as a user gives them: `D` is the line's input of a duration, `M` its options
 * of the metrics.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options<D, M> extends PermitStore.Settings {
  /** The window; default 1000 ms. */
  readonly window?: D | undefined
  /** Extra time a permit is held past the window, against clock granularity; default 20 ms. */
  readonly margin?: D | undefined
  /**
   * How long a permit stays held after its answer: `"learned"` (the default) gives back what the
   * round trips seen so far show to be the same in every request ("Pacing at real latency" in
   * `docs/client.md`); `"safe"` always holds a window plus the margin after the answer, for processes
   * sharing one store from very different distances to the API.
   */
  readonly hold?: "learned" | "safe" | undefined
  /**
   * What the service records beyond the client's aggregated metrics (`Metrics`): series per user,
   * at most `perUser.max` users at once, each leaving with its user's state. Off by default.
   */
  readonly metrics?: M | undefined
}

/**
 * What every pacing service shows besides its `withPermit` (whose type is a line's own): `Void` is a
 * line's effect that does nothing but wait, `Count` its effect of a number, `Requests` its effect of
 * a user's budget.
 *
 * @since 0.1.0
 * @category models
 */
export interface Shape<Void, Count, Requests> {
  /** The server answered 5: hold back every further request of `user` for a whole window. */
  readonly penalize: (user: string) => Void
  /** The resolved settings. */
  readonly settings: PacingRule.Settings
  /**
   * How many users this service holds state for now: a user's leaves memory once none of its calls
   * waits or is in flight. A store keeps its own (a memory store's gates: `PermitStore.Memory`).
   */
  readonly users: Count
  /**
   * What is left of the rate window of `user` now, from the store: the permits taken or held back, the
   * free ones, and when the next held one comes back.
   */
  readonly budget: (user: string) => Requests
}

/**
 * The settings of a pacing over a store of `limit` permits, resolved: the window and the margin in
 * milliseconds (`toMillis` reads a line's duration), the defaults the pacing rule's own.
 *
 * @since 0.1.0
 * @category constructors
 */
export const resolve = <D>(
  limit: number,
  options: Pick<Options<D, unknown>, "window" | "margin">,
  toMillis: (duration: D) => number
): PacingRule.Settings => ({
  limit,
  windowMillis: options.window === undefined ? PacingRule.defaults.windowMillis : toMillis(options.window),
  marginMillis: options.margin === undefined ? PacingRule.defaults.marginMillis : toMillis(options.margin)
})

/**
 * The defaults of a pacing's settings: the API's limit (30 per 1000 ms, from `Limits`) and a 20 ms
 * margin, the pacing rule's own ({@link PacingRule.defaults}), the durations made by a line's `millis`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const defaultsIn = <D>(millis: (millis: number) => D): {
  readonly limit: number
  readonly window: D
  readonly margin: D
} => ({
  limit: PacingRule.defaults.limit,
  window: millis(PacingRule.defaults.windowMillis),
  margin: millis(PacingRule.defaults.marginMillis)
})

/** The rule of one user and its calls. */
interface Entry {
  readonly rule: PacingRule.Rule
  /** Calls of the user waiting for a permit or in flight. */
  active: number
  /** Permits its calls hold (the metrics'). */
  held: number
  /** When the last of them ended. */
  endedAt: number
}

/**
 * One call with a permit of its user, from {@link PacingBook.begin} until it ended.
 *
 * @since 0.1.0
 * @category models
 */
export interface Call {
  readonly user: string
  /** How many permits the calls of its user hold now (a per-user metric reads it). */
  readonly held: () => number
  /** @internal */
  readonly entry: Entry
  /** @internal */
  readonly askedAt: number
  /** @internal */
  takenAt: number
}

/**
 * The pacing rules of every user in this process.
 *
 * @since 0.1.0
 * @category models
 */
export interface PacingBook {
  readonly settings: PacingRule.Settings
  /** How long the sweeper sleeps between two sweeps: a window plus the margin. */
  readonly idleMillis: number
  /** A call of `user` asks its store for a permit at `now`. */
  readonly begin: (user: string, now: number) => Call
  /** The call took its permit at `now` (its request is about to be sent): how long it waited for it. */
  readonly taken: (call: Call, now: number) => number
  /** The call's request ended at `now` (answered or not): the hold of its permit, for the store. */
  readonly answered: (call: Call, now: number) => PacingRule.Hold
  /** The call ended at `now`, with its permit or without: `true` when the line starts the sweeper. */
  readonly settle: (call: Call, now: number) => boolean
  /** The sweeper woke at `now` and dropped the idle rules: `true` while it goes on. */
  readonly sweep: (now: number) => boolean
  /** The server refused a request of `user` for the rate: how long the store blocks its takes. */
  readonly refused: (user: string) => number
  /** How many users the book holds a rule for. */
  readonly users: () => number
}

/**
 * Makes the rules of every user for `settings`, the rule at real latency unless `hold` is `"safe"`.
 * What a line records hears of each user that comes or leaves (`onUsers`, and `onDrop` with the user
 * who left) and of each permit taken (`1`) or given back (`-1`, `onPermits`, and `onHeld` with the
 * number its user's calls hold then).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (settings: PacingRule.Settings, options: {
  readonly hold?: "learned" | "safe" | undefined
  readonly onUsers?: ((change: 1 | -1) => void) | undefined
  readonly onDrop?: ((user: string) => void) | undefined
  readonly onPermits?: ((change: 1 | -1) => void) | undefined
  readonly onHeld?: ((user: string, held: number) => void) | undefined
} = {}): PacingBook => {
  const makeRule = options.hold === "safe" ? PacingRule.safe : PacingRule.make
  const idleMillis = PacingRule.penaltyMillis(settings)
  const { onDrop, onHeld, onPermits, onUsers } = options
  const rules = UserTable.make<Entry>({
    create: () => {
      onUsers?.(1)
      return { rule: makeRule(settings), active: 0, held: 0, endedAt: 0 }
    },
    isIdle: (entry, now) => entry.active === 0 && entry.endedAt + idleMillis <= now,
    onDrop: (user) => {
      onUsers?.(-1)
      onDrop?.(user)
    }
  })
  const held = (call: Call, change: 1 | -1) => {
    call.entry.held += change
    onPermits?.(change)
    onHeld?.(call.user, call.entry.held)
  }
  let sweeping = false
  return {
    settings,
    idleMillis,
    begin: (user, now) => {
      const entry = rules.get(user, now)
      entry.active++
      return { user, entry, askedAt: now, takenAt: now, held: () => entry.held }
    },
    taken: (call, now) => {
      call.takenAt = now
      held(call, 1)
      return now - call.askedAt
    },
    answered: (call, now) => {
      held(call, -1)
      return call.entry.rule.holdAfter(now - call.takenAt)
    },
    settle: (call, now) => {
      call.entry.active--
      call.entry.endedAt = now
      if (sweeping) return false
      sweeping = true
      return true
    },
    sweep: (now) => {
      rules.sweep(now)
      sweeping = rules.size() > 0
      return sweeping
    },
    refused: (user) => {
      rules.peek(user)?.rule.refused()
      return idleMillis
    },
    users: () => rules.size()
  }
}

/**
 * What a line logs (at debug) when its store missed the block after an error 5: the server refused the
 * request anyway, and a store that missed the block leaves it to the server.
 *
 * @since 0.1.0
 * @category utils
 */
export const blockNotStored = (error: unknown): string =>
  `pacing: the block after error 5 was not stored: ${error instanceof Error ? error.message : String(error)}`

/**
 * The {@link Shape} of a pacing service of `book` over `store`, in a line's effects (`F`, as
 * `RedisPermitStore.Kind` reads them; `Instant` its instants of a budget, `E` how its store fails).
 * A block the store could not record after a refusal is logged: the server refused the request
 * anyway, and holds its own limit.
 *
 * @since 0.1.0
 * @category constructors
 */
export const shape = <F extends TypeLambda, Instant, E>(
  effects: Pick<CreationQuota.Effects<F, Instant>, "flatMap" | "map" | "sync" | "logged" | "instant">,
  store: Pick<PermitStore.Store<unknown, unknown, Kind<F, Budget.Requests, E>, Kind<F, void, E>>, "budget" | "block">,
  book: PacingBook
): Shape<Kind<F, void, never>, Kind<F, number, never>, Kind<F, Budget.Requests<Instant>, E>> => ({
  settings: book.settings,
  users: effects.sync(book.users),
  budget: (user) => effects.map(store.budget(user), (budget) => Budget.mapInstants(budget, effects.instant)),
  penalize: (user) =>
    effects.logged(
      effects.flatMap(effects.sync(() => book.refused(user)), (millis) => store.block(user, millis)),
      blockNotStored,
      undefined
    )
})

/**
 * The sweeper of `book` in a line's effects: it waits a window and the margin without keeping the
 * process alive (`idle`), drops the rules gone idle, and goes on while any is left. A line forks it
 * when {@link PacingBook.settle} says; no call waits for it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const sweeper = <F extends TypeLambda>(
  effects: Pick<CreationQuota.Effects<F, unknown>, "flatMap" | "clock" | "idle"> & {
    readonly void: Kind<F, void, never>
  },
  book: PacingBook
): Kind<F, void, never> => {
  const sweep: Kind<F, void, never> = effects.flatMap(
    effects.idle(book.idleMillis),
    () => effects.flatMap(effects.clock, (now) => book.sweep(now) ? sweep : effects.void)
  )
  return sweep
}
