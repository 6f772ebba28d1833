/**
 * Where the client records its metrics (`Metrics.ts`), in the registry of the fiber's context. The
 * counters and the histogram are updated where things happen, each tagged metric made once per set of
 * tags; the gauges are series whose value is read when a snapshot is taken (`Metric.registerUnsafe`):
 * the totals below, and a user's permits, whose series is removed with the user's state.
 */
import * as MetricNames from "@community-api/core/MetricNames"
import * as MetricRecorder from "@community-api/core/MetricRecorder"
import { Cause, Context, Effect, Exit, Metric, Option } from "effect"
import * as Metrics from "../Metrics.js"

/** Which tagged metric each event updates: the core's decision, over this line's counters. */
const recorder = MetricRecorder.make(
  { calls: Metrics.calls, retries: Metrics.retries, refusals: Metrics.refusals },
  (counter, tags) => Metric.withAttributes(counter, tags)
)

/** How a call ended, as the core reads it. */
const endOf = (exit: Exit.Exit<unknown, unknown>): MetricRecorder.End =>
  Exit.isSuccess(exit)
    ? MetricRecorder.success
    : Option.match(Cause.findErrorOption(exit.cause), {
      onSome: MetricRecorder.failure,
      onNone: () => Cause.hasInterruptsOnly(exit.cause) ? MetricRecorder.interrupted : MetricRecorder.defect
    })

/**
 * A call of `operation` ended with `exit`; a creation that the client's own quota refused (nothing
 * sent) is a refusal too.
 */
export const callEnded = (operation: string) => (exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> =>
  Effect.withFiber((fiber) => {
    for (const metric of recorder.callEnded(operation, endOf(exit))) metric.updateUnsafe(1, fiber.context)
    return Effect.void
  })

/** An attempt is sent again after `error`. */
export const retried = (error: unknown): Effect.Effect<void> => Metric.update(recorder.retried(error), 1)

/** The server refused a request with error 5, read as `kind` (the rate, the creation minute or day). */
export const refused = (kind: string): Effect.Effect<void> => Metric.update(recorder.refused(kind), 1)

/** A request waited `millis` for its permit: recorded in seconds. */
export const waited = (millis: number, context: Context.Context<never>): void =>
  Metrics.permitWait.updateUnsafe(MetricNames.secondsOf(millis), context)

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

/**
 * Puts the aggregated gauges in the registry of `context`, once, with the series known ahead (the
 * core's `known`) and the histogram at zero, so that a rate or an alert over them is there before
 * anything happens.
 */
export const register = (context: Context.Context<never>): void => {
  if (!recorder.declares(Context.get(context, Metric.MetricRegistry))) return
  Metric.registerUnsafe(Metrics.users, context, readOnly(() => totals.users))
  Metric.registerUnsafe(Metrics.permitsHeld, context, readOnly(() => totals.held))
  for (const metric of recorder.known()) metric.updateUnsafe(0, context)
  Metrics.permitWait.valueUnsafe(context)
}

/** A client is made: its metrics are in the registry of the fiber's context from now on. */
export const declare: Effect.Effect<void> = Effect.withFiber((fiber) => {
  register(fiber.context)
  return Effect.void
})

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
  const series = MetricNames.perUserSeriesOf<Metric.Registration>(options)
  if (series === undefined) return undefined
  return {
    track: (user, held, context) => {
      series.of(user, () => {
        const metric = Metric.withAttributes(Metrics.userPermitsHeld, { [MetricNames.tags.user]: user })
        return Metric.registerUnsafe(metric, context, readOnly(held))
      })
    },
    drop: (user) => series.release(user)?.remove()
  }
}
