/**
 * The Effect 4 line's `tryOptions` (the Options scenarios): the client, the limiters and their Redis
 * stores made with options as given, in code or through `Config`, built for a scope closed at once.
 */
import { Config, ConfigProvider, Duration, Effect, Layer, Redacted } from "effect"
import { HttpClient } from "effect/http"
import type * as Driver from "../../../../../tests/client-behaviour/src/Driver.js"
import * as Lines from "../../../../../tests/client-behaviour/src/Lines.js"
import * as CommunityApiClient from "../../src/CommunityApiClient.js"
import * as CreationQuota from "../../src/CreationQuota.js"
import * as Pacing from "../../src/Pacing.js"

/** An `HttpClient` that dies when used: nothing may be sent. */
const unsent = Layer.succeed(HttpClient.HttpClient, HttpClient.make(() => Effect.die("a request was sent")))

/** The line's constructors of each target. */
const makers: Lines.OptionsMakers = {
  client: (config) => Layer.effectDiscard(CommunityApiClient.make(config)).pipe(Layer.provide(unsent)),
  clientConfig: (mapped) =>
    CommunityApiClient.layerConfig(
      Config.map(CommunityApiClient.configFromEnv, (config) => ({ ...config, ...mapped }))
    ).pipe(Layer.provide(unsent)),
  Pacing,
  CreationQuota
}

/** What `Line.tryOptions` runs: `target` made with the options, built for a scope closed at once. */
export const build = (
  target: Driver.OptionsTarget,
  given: Readonly<Record<string, Driver.OptionValue>>
): Effect.Effect<"made", unknown> => {
  const options = Lines.optionsOf(target, given, { millis: Duration.millis, secret: Redacted.make })
  const provider = ConfigProvider.fromEnv({ env: Lines.optionsEnv(target, options) })
  const layer = Lines.optionsLayer(target, options, makers) as Layer.Layer<unknown, unknown>
  return Effect.scoped(Layer.build(layer)).pipe(
    Effect.as("made" as const),
    Effect.provideService(ConfigProvider.ConfigProvider, provider)
  )
}
