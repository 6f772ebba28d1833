/**
 * The running state of the faults: counters of "next N" triggers and seeded generators for
 * probabilities and random latency, so a run with a given seed is repeatable.
 *
 * The settings are read once, into states that hold exactly what each kind of trigger needs: a
 * counter has no generator, a probability no counter, a fault that is off no state at all. What the
 * settings leave optional is decided here, so drawing a request's faults never meets a missing part.
 *
 * @internal
 */
import type * as Faults from "../Faults.js"
import * as SeededRandom from "../SeededRandom.js"

/** A trigger as it runs. */
type Firing =
  | { readonly _tag: "Next"; left: number }
  | { readonly _tag: "Probability"; readonly probability: number; readonly random: SeededRandom.SeededRandom }

/** A fault that may name the operations it hits and come after the action. */
interface Targeted {
  readonly firing: Firing
  /** Every operation when `undefined`. */
  readonly paths: ReadonlyArray<string> | undefined
  readonly afterAction: boolean
}

/** How the delay before each answer is chosen. */
type Latency =
  | { readonly _tag: "None" }
  | { readonly _tag: "Fixed"; readonly millis: number }
  | { readonly _tag: "Random"; readonly low: number; readonly high: number; readonly random: SeededRandom.SeededRandom }

const firing = (trigger: Faults.Trigger): Firing =>
  "next" in trigger
    ? { _tag: "Next", left: trigger.next }
    : { _tag: "Probability", probability: trigger.probability, random: SeededRandom.make(trigger.seed) }

const targeted = (
  settings: Faults.Trigger & {
    readonly paths?: ReadonlyArray<string> | undefined
    readonly afterAction?: boolean | undefined
  }
): Targeted => ({ firing: firing(settings), paths: settings.paths, afterAction: settings.afterAction === true })

const latencyOf = (settings: Faults.FaultSettings["latency"]): Latency => {
  if (settings === undefined) return { _tag: "None" }
  if ("fixed" in settings) return { _tag: "Fixed", millis: settings.fixed }
  return {
    _tag: "Random",
    low: Math.min(settings.min, settings.max),
    high: Math.max(settings.min, settings.max),
    random: SeededRandom.make(settings.seed)
  }
}

/** Whether the trigger fires for this request: a counter counts down, a probability draws. */
const fire = (state: Firing): boolean => {
  switch (state._tag) {
    case "Next": {
      if (state.left <= 0) return false
      state.left--
      return true
    }
    case "Probability":
      return state.random() < state.probability
  }
}

/** Whether a targeted fault fires for a request to `path`, and when: one outside its paths draws nothing. */
const draw = (fault: Targeted | undefined, path: string): "no" | "before" | "after" => {
  if (fault === undefined || (fault.paths !== undefined && !fault.paths.includes(path))) return "no"
  if (!fire(fault.firing)) return "no"
  return fault.afterAction ? "after" : "before"
}

/** What the faults decide for one request. */
export interface Decision {
  readonly keyServiceUnavailable: boolean
  readonly internalError: "no" | "before" | "after"
  readonly drop: "no" | "before" | "after"
}

export class FaultState {
  private readonly key: Firing | undefined
  private readonly internal: Targeted | undefined
  private readonly dropping: Targeted | undefined
  private readonly delay: Latency

  constructor(readonly settings: Faults.FaultSettings) {
    this.key = settings.keyServiceUnavailable === undefined ? undefined : firing(settings.keyServiceUnavailable)
    this.internal = settings.internalError === undefined ? undefined : targeted(settings.internalError)
    this.dropping = settings.dropConnection === undefined ? undefined : targeted(settings.dropConnection)
    this.delay = latencyOf(settings.latency)
  }

  /** The delay before this request's answer, in milliseconds. */
  latency(): number {
    const delay = this.delay
    switch (delay._tag) {
      case "None":
        return 0
      case "Fixed":
        return delay.millis
      case "Random":
        return delay.low + Math.floor(delay.random() * (delay.high - delay.low + 1))
    }
  }

  /** Draws every fault for one request to the operation at `path`. */
  decide(path: string): Decision {
    const drop = draw(this.dropping, path)
    // A request dropped before the action draws nothing else: the other faults wait for the next one.
    if (drop === "before") return { keyServiceUnavailable: false, internalError: "no", drop }
    const internalError = draw(this.internal, path)
    return { keyServiceUnavailable: this.key !== undefined && fire(this.key), internalError, drop }
  }
}
