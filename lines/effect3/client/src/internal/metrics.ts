/**
 * Where the client records its metrics (`Metrics.ts`): each a synchronous update of a `Metric`, with
 * one array of labels per set of tags, made once: a call's path is measured in microseconds, and
 * Effect 3 finds a tagged series by the identity of its labels array (`Metric.tagged` makes a new
 * array at each update, which then costs a new key and a lookup in the registry).
 */
import * as MetricNames from "@community-api/core/MetricNames"
import * as MetricRecorder from "@community-api/core/MetricRecorder"
import { Cause, Effect, Exit, Metric, MetricKey, MetricLabel, MutableHashMap, Option, Predicate } from "effect"
import * as Metrics from "../Metrics.js"

/** A series of a counter, by its tag values: adds to it. */
type Series = (value: number) => void

/** Which series each event adds to: the core's decision, over this line's counters. */
const recorder = MetricRecorder.make(
  { calls: Metrics.calls, retries: Metrics.retries, refusals: Metrics.refusals },
  (counter, tags): Series => {
    const labels = Object.entries(tags).map(([key, value]) => MetricLabel.make(key, value))
    return (value) => counter.unsafeUpdate(value, labels)
  }
)

const noTags: ReadonlyArray<MetricLabel.MetricLabel> = []

/** How a call ended, as the core reads it. */
const endOf = (exit: Exit.Exit<unknown, unknown>): MetricRecorder.End => {
  if (Exit.isSuccess(exit)) return MetricRecorder.success
  const failure = Cause.failureOption(exit.cause)
  if (Option.isSome(failure)) return MetricRecorder.failure(failure.value)
  return Cause.isInterruptedOnly(exit.cause) ? MetricRecorder.interrupted : MetricRecorder.defect
}

/**
 * A call of `operation` ended with `exit`; a creation that the client's own quota refused (nothing
 * sent) is a refusal too.
 */
export const callEnded = (operation: string) => (exit: Exit.Exit<unknown, unknown>): Effect.Effect<void> =>
  Effect.sync(() => {
    for (const add of recorder.callEnded(operation, endOf(exit))) add(1)
  })

/** An attempt is sent again after `error`. */
export const retried = (error: unknown): void => recorder.retried(error)(1)

/** The server refused a request with error 5, read as `kind` (the rate, the creation minute or day). */
export const refused = (kind: string): Effect.Effect<void> => Effect.sync(() => recorder.refused(kind)(1))

/** A request waited `millis` for its permit: recorded in seconds. */
export const waited = (millis: number): void => Metrics.permitWait.unsafeUpdate(MetricNames.secondsOf(millis), noTags)

/**
 * A client is made: the series known ahead (the core's `known`), the histogram and the gauges are put
 * in the registry at zero, once, so that a rate or an alert over them is there before anything
 * happens.
 */
export const declare: Effect.Effect<void> = Effect.sync(() => {
  // Effect 3's registry is one for the whole process.
  if (!recorder.declares(Metric.globalMetricRegistry)) return
  for (const add of recorder.known()) add(0)
  Metrics.permitWait.unsafeValue(noTags)
  Metrics.users.unsafeModify(0, noTags)
  Metrics.permitsHeld.unsafeModify(0, noTags)
})

/** Users with pacing state: `delta` came or left. */
export const usersChanged = (delta: number): void => Metrics.users.unsafeModify(delta, noTags)

/** Permits held: `delta` taken or given back. */
export const permitsChanged = (delta: number): void => Metrics.permitsHeld.unsafeModify(delta, noTags)

/**
 * The series of one user, and its key in Effect's registry: kept so that the series can leave the
 * registry with the user.
 */
const seriesOf = (user: string) => {
  const key = MetricKey.tagged(
    MetricKey.gauge(MetricNames.userPermitsHeld.name, { description: MetricNames.userPermitsHeld.description }),
    MetricNames.tags.user,
    user
  )
  return { key, metric: Metric.fromMetricKey(key) }
}

/**
 * Effect 3's registry offers no removal of a series; its map of keys is reached here so that an
 * evicted user's series leaves memory with it. Should a later Effect 3 keep it elsewhere, the series
 * is set to zero instead (and stays).
 */
const mutableHashMapTypeId = Symbol.for("effect/MutableHashMap")

const removeFromRegistry = (key: MetricKey.MetricKey.Untyped): boolean => {
  const registry: unknown = Metric.globalMetricRegistry
  if (!Predicate.hasProperty(registry, "map") || !Predicate.hasProperty(registry.map, mutableHashMapTypeId)) {
    return false
  }
  MutableHashMap.remove(
    registry.map as unknown as MutableHashMap.MutableHashMap<MetricKey.MetricKey.Untyped, unknown>,
    key
  )
  return true
}

/**
 * The per-user series of one pacing service: at most `max` users at once, each freed with its user's
 * state.
 */
export interface PerUser {
  /** `user`'s requests now hold `held` permits. */
  readonly set: (user: string, held: number) => void
  /** `user`'s state left memory: so does its series. */
  readonly drop: (user: string) => void
}

/** The per-user series asked for by `options`, or none. */
export const perUser = (options: Metrics.Options | undefined): PerUser | undefined => {
  const series = MetricNames.perUserSeriesOf<ReturnType<typeof seriesOf>>(options)
  if (series === undefined) return undefined
  return {
    set: (user, held) => series.of(user, () => seriesOf(user))?.metric.unsafeUpdate(held, noTags),
    drop: (user) => {
      const gauge = series.release(user)
      if (gauge !== undefined && !removeFromRegistry(gauge.key)) gauge.metric.unsafeUpdate(0, noTags)
    }
  }
}
