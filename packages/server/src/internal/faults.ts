/**
 * The running state of the faults: counters of "next N" triggers and seeded generators for
 * probabilities and random latency, so a run with a given seed is repeatable.
 *
 * @internal
 */
import type * as Faults from "../Faults.js"
import * as SeededRandom from "../SeededRandom.js"

interface Firing {
  left: number
  readonly random: SeededRandom.SeededRandom | undefined
}

const firing = (trigger: { readonly next: number } | { readonly probability: number; readonly seed: number }) =>
  "next" in trigger
    ? { left: trigger.next, random: undefined }
    : { left: 0, random: SeededRandom.make(trigger.seed) }

const fire = (
  trigger: { readonly next: number } | { readonly probability: number },
  state: Firing
): boolean => {
  if ("next" in trigger) {
    if (state.left <= 0) return false
    state.left--
    return true
  }
  return state.random!() < trigger.probability
}

const matches = (paths: ReadonlyArray<string> | undefined, path: string) => paths === undefined || paths.includes(path)

/** What the faults decide for one request. */
export interface Decision {
  readonly keyServiceUnavailable: boolean
  readonly internalError: "no" | "before" | "after"
  readonly drop: "no" | "before" | "after"
}

export class FaultState {
  private key: Firing | undefined
  private internal: Firing | undefined
  private dropping: Firing | undefined
  private latencyRandom: SeededRandom.SeededRandom | undefined

  constructor(readonly settings: Faults.FaultSettings) {
    this.key = settings.keyServiceUnavailable && firing(settings.keyServiceUnavailable)
    this.internal = settings.internalError && firing(settings.internalError)
    this.dropping = settings.dropConnection && firing(settings.dropConnection)
    this.latencyRandom = settings.latency !== undefined && "seed" in settings.latency
      ? SeededRandom.make(settings.latency.seed)
      : undefined
  }

  /** The delay before this request's answer, in milliseconds. */
  latency(): number {
    const latency = this.settings.latency
    if (latency === undefined) return 0
    if ("fixed" in latency) return latency.fixed
    const low = Math.min(latency.min, latency.max)
    const high = Math.max(latency.min, latency.max)
    return low + Math.floor(this.latencyRandom!() * (high - low + 1))
  }

  /** Draws every fault for one request to the operation at `path`. */
  decide(path: string): Decision {
    const { dropConnection, internalError, keyServiceUnavailable } = this.settings
    const drop = dropConnection !== undefined && matches(dropConnection.paths, path) &&
      fire(dropConnection, this.dropping!)
    // A request dropped before the action draws nothing else: the other faults wait for the next one.
    if (drop && dropConnection!.afterAction !== true) {
      return { keyServiceUnavailable: false, internalError: "no", drop: "before" }
    }
    const internal = internalError !== undefined && matches(internalError.paths, path) &&
      fire(internalError, this.internal!)
    return {
      keyServiceUnavailable: keyServiceUnavailable !== undefined && fire(keyServiceUnavailable, this.key!),
      internalError: internal ? (internalError!.afterAction === true ? "after" : "before") : "no",
      drop: drop ? (dropConnection!.afterAction === true ? "after" : "before") : "no"
    }
  }
}
