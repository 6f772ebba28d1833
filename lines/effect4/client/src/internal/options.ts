/**
 * The core's rules of the options (`@community-api/core/OptionRules`) over this line's values: its
 * durations and its `Redacted`, and the refusal raised as `ClientError.InvalidConfig`.
 *
 * @internal
 */
import * as OptionRules from "@community-api/core/OptionRules"
import { Duration, Effect, Option, Redacted } from "effect"
import * as ClientError from "../ClientError.js"

/** How this line's values are read for the rules. @internal */
export const reading: OptionRules.Reading = {
  millis: (given) => Option.getOrUndefined(Option.map(Duration.fromInput(given as Duration.Input), Duration.toMillis)),
  secret: (given) => Redacted.isRedacted(given) ? { text: Redacted.value(given) } : undefined
}

/** Throws the refusal of `check` as `InvalidConfig` (for the constructors run synchronously). @internal */
export const orThrow = (refusal: OptionRules.Refusal | undefined): void => {
  if (refusal !== undefined) throw new ClientError.InvalidConfig(refusal)
}

/** Dies with the refusal as `InvalidConfig`, or runs `effect`. @internal */
export const checked = <A, E, R>(
  refusal: () => OptionRules.Refusal | undefined,
  effect: () => Effect.Effect<A, E, R>
): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    const refused = refusal()
    return refused === undefined ? effect() : Effect.die(new ClientError.InvalidConfig(refused))
  })
