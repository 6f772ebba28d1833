/**
 * Where the client records its metrics (`Metrics.ts`), in the registry of the fiber's context. The
 * counters and the histogram are updated where things happen, each tagged metric made once per set of
 * tags; the gauges are series whose value is read when a snapshot is taken (`Metric.registerUnsafe`):
 * the totals below, and a user's permits, whose series is removed with the user's state.
 */
import * as MetricNames from "@community-api/core/MetricNames"
import { Cause, Context, Effect, Exit, Metric, Option, Predicate } from "effect"
import * as Metrics from "../Metrics.js"

type Counter = Metric.Counter<number>

/** The metric tagged with each tag value, made on first use. */
const taggedBy = (metric: Counter, ...keys: ReadonlyArray<string>) => {
  const made = new Map<string, Counter>()
  return (...values: ReadonlyArray<string>): Counter => {
    const id = values.join("\u0000")
    let tagged = made.get(id)
    if (tagged === undefined) {
      tagged = Metric.withAttributes(metric, Object.fromEntries(keys.map((key, i) => [key, values[i]!])))
      made.set(id, tagged)
    }
    return tagged
  }
}

const callsBy = taggedBy(Metrics.calls, MetricNames.tags.operation, MetricNames.tags.outcome)
const retriesBy = taggedBy(Metrics.retries, MetricNames.tags.reason)
const refusalsBy = taggedBy(Metrics.refusals, MetricNames.tags.kind, MetricNames.tags.source)

/** The outcome of a failure (`MetricNames.outcomeOf`), from the error's tag, code and scope. */
export const outcomeOf = (error: unknown): string =>
  MetricNames.outcomeOf(
    Predicate.hasProperty(error, "_tag") && typeof error._tag === "string" ? error._tag : undefined,
    Predicate.hasProperty(error, "code") && typeof error.code === "number" ? error.code : undefined,
    Predicate.hasProperty(error, "scope") && typeof error.scope === "string" ? error.scope : undefined
  )

const failureOf = (exit: Exit.Exit<unknown, unknown>): Option.Option<unknown> =>
  Exit.isSuccess(exit) ? Option.none() : Cause.findErrorOption(exit.cause)

/** What a call ended with: `ok`, its error's outcome, `interrupted`, or `other` (a defect). */
const endOf = (exit: Exit.Exit<unknown, unknown>): string => {
  if (Exit.isSuccess(exit)) return MetricNames.ok
  const failure = failureOf(exit)
  if (Option.isSome(failure)) return outcomeOf(failure.value)
  return Cause.hasInterruptsOnly(exit.cause) ? MetricNames.interrupted : "other"
}

const isQuotaRefusal = (error: unknown): error is { readonly window: string } =>
  Predicate.isTagged(error, "CreationQuotaExceeded") && Predicate.hasProperty(error, "window") &&
  typeof error.window === "string"

/**
 * A call of `operation` ended with `exit`; a creation that the client's own quota refused (nothing
 * sent) is a refusal too.
 */
export const callEnded = (operation: string) => (exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    callsBy(operation, endOf(exit)).updateUnsafe(1, fiber.context)
    const failure = failureOf(exit)
    if (Option.isSome(failure) && isQuotaRefusal(failure.value)) {
      refusalsBy(failure.value.window, "client").updateUnsafe(1, fiber.context)
    }
    return Effect.void
  })

/** An attempt is sent again after `error`. */
export const retried = (error: unknown): Effect.Effect<void> => Metric.update(retriesBy(outcomeOf(error)), 1)

/** The server refused a request with error 5, read as `kind` (the rate, the creation minute or day). */
export const refused = (kind: string): Effect.Effect<void> => Metric.update(refusalsBy(kind, "server"), 1)

/** A request waited `millis` for its permit. */
export const waited = (millis: number, context: Context.Context<never>): void =>
  Metrics.permitWait.updateUnsafe(millis, context)

/** What the aggregated gauges read, over every pacing service of the process. */
const totals = { users: 0, held: 0 }

/** Users with pacing state: `delta` came or left. */
export const usersChanged = (delta: number): void => {
  totals.users += delta
}

/** Permits held: `delta` taken or given back. */
export const permitsChanged = (delta: number): void => {
  totals.held += delta
}

const readOnly = (get: () => number): Metric.Metric.Hooks<number, Metric.GaugeState<number>> => ({
  get: () => ({ value: get() }),
  update: () => {},
  modify: () => {}
})

/** The registries the aggregated gauges are in. */
const registered = new WeakSet<Metric.MetricRegistry>()

/** Puts the aggregated gauges in the registry of `context`, once. */
export const register = (context: Context.Context<never>): void => {
  const registry = Context.get(context, Metric.MetricRegistry)
  if (registered.has(registry)) return
  registered.add(registry)
  Metric.registerUnsafe(Metrics.users, context, readOnly(() => totals.users))
  Metric.registerUnsafe(Metrics.permitsHeld, context, readOnly(() => totals.held))
}

/**
 * The per-user series of one pacing service: at most `max` users at once, each removed with its
 * user's state.
 */
export interface PerUser {
  /** `user` has state now: its series reads `held` (when it has a place). */
  readonly track: (user: string, held: () => number, context: Context.Context<never>) => void
  /** `user`'s state left memory: so does its series. */
  readonly drop: (user: string) => void
}

/** The per-user series asked for by `options`, or none. */
export const perUser = (options: Metrics.Options | undefined): PerUser | undefined => {
  if (options?.perUser === undefined) return undefined
  const places = MetricNames.makePerUser(options.perUser.max ?? MetricNames.defaultPerUserMax)
  const series = new Map<string, Metric.Registration>()
  return {
    track: (user, held, context) => {
      if (series.has(user) || !places.admit(user)) return
      const metric = Metric.withAttributes(Metrics.userPermitsHeld, { [MetricNames.tags.user]: user })
      series.set(user, Metric.registerUnsafe(metric, context, readOnly(held)))
    },
    drop: (user) => {
      places.release(user)
      series.get(user)?.remove()
      series.delete(user)
    }
  }
}
