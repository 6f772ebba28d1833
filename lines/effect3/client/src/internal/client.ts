/**
 * The client: each method encodes its parameters, then sends them through a composition of small
 * steps, each one concern, in the way `dfx` applies its rate limits around its REST client:
 *
 *     the call's deadline; in flight, an unknown outcome   (deadline.ts)
 *       the attempts as the core's plan says: again after  (steps.ts, core CallSteps, CallPlan)
 *       error 5, on the schedule, or an unknown outcome
 *           numbered attempt:
 *             admission: creation quota, pacing permit     (limiting.ts)
 *               exchange: HttpClient built once, timeout,  (exchange.ts, http.ts)
 *                 body within its bound                    (body.ts)
 *             decode the envelope; error 9 gives the creation back, error 5 holds back its limit
 */
import * as CallSteps from "@community-api/core/CallSteps"
import * as ClientMethods from "@community-api/core/ClientMethods"
import * as ClientSettings from "@community-api/core/ClientSettings"
import * as OptionRules from "@community-api/core/OptionRules"
import * as ParameterWords from "@community-api/core/ParameterWords"
import * as Spans from "@community-api/core/Spans"
import { Envelope, JsonSchema, Operation, Operations, type Page } from "@community-api/schema"
import type { HttpClient } from "@effect/platform"
import { type Clock, type DateTime, Effect, ParseResult, Schema } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CommunityApiClient from "../CommunityApiClient.js"
import * as CreationQuota from "../CreationQuota.js"
import * as Pacing from "../Pacing.js"
import * as Paginate from "../Paginate.js"
import * as Retry from "../Retry.js"
import * as Deadline from "./deadline.js"
import * as Exchange from "./exchange.js"
import * as Http from "./http.js"
import * as Limiting from "./limiting.js"
import * as Metrics from "./metrics.js"
import * as Options from "./options.js"
import * as Steps from "./steps.js"

/** What the call path needs to know of an operation. */
type Target = Pick<Operation.Any, "section" | "method" | "path" | "creation" | "safeToRepeat">

/** Every refused parameter is told, not the first alone. */
const everyProblem = { errors: "all" } as const

/**
 * Parameters refused by the payload's schema: each one, in the words the command line and the MCP
 * server use too (the core's `ParameterWords`), from the payload's JSON Schema; a payload the JSON
 * Schema cannot describe is told in the schema's own words.
 */
const encodeError = (
  operation: string,
  payload: Schema.Schema.AnyNoContext,
  params: unknown,
  error: ParseResult.ParseError
): ClientError.RequestEncodeError =>
  new ClientError.RequestEncodeError({
    operation,
    reason: ParameterWords.encodeReason(params, {
      schema: () => JsonSchema.fromPayload(payload),
      failures: () => ParseResult.ArrayFormatter.formatErrorSync(error),
      otherwise: () => ParseResult.TreeFormatter.formatErrorSync(error)
    })
  })

/** The parameters encoded by `payload`; without one they are sent as given (`{}` when none). */
const encoded = (operation: string, payload: Schema.Schema.AnyNoContext | undefined, params: unknown) =>
  payload === undefined
    ? Effect.succeed(params ?? {})
    : Schema.encodeUnknown(payload)(params, everyProblem).pipe(
      Effect.mapError((error) => encodeError(operation, payload, params, error))
    )

/** Effect's own tracer, in the context when no tracer is installed: its spans are exported nowhere. */
const builtInTracer = Effect.runSync(Effect.tracerWith(Effect.succeed))

/** How a call reads the envelope of its answer. */
type Decode<A, E> = (body: unknown) => Effect.Effect<A, E | Envelope.EnvelopeDecodeError>

/** @internal */
export const make = (
  config: CommunityApiClient.ClientConfig
): Effect.Effect<CommunityApiClient.Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    yield* Metrics.declare
    yield* Options.checked(() => OptionRules.client(config, Options.reading), () => Effect.void)
    // Each option given or its default, and the user: the core's, so that both lines agree.
    const settings = ClientSettings.of(config, Options.reading)
    const wire = yield* Http.make(config)
    // References: the process-wide limiters unless a layer provides others (see Pacing, CreationQuota).
    const pacing = yield* Pacing.Pacing
    const quota = yield* CreationQuota.CreationQuota
    const { lane, onCreationLimit, user } = settings
    const policy: Retry.Policy = { ...Retry.defaultPolicy, ...config.retry }
    const exchange = Exchange.make(wire.http, settings.maxResponseBytes)
    const ordinary = Limiting.paced(pacing, user, lane)
    const admissionOf = (target: Target): Limiting.Admission =>
      target.creation ? Limiting.counted(quota, pacing, user, target.path, onCreationLimit, lane) : ordinary
    // Each call's steps, its attempts and its deadline: the core's, over this line's effects.
    const sending = CallSteps.sender<Steps.F, Clock.Clock>({
      effects: Deadline.effects,
      retries: Steps.retries(policy.schedule),
      decoding: Steps.decoding,
      errors: Deadline.errors,
      settings,
      limitRetries: policy.limitRetries
    })

    // The whole call of `target` with the encoded parameters: admitted, exchanged, its answer decoded.
    const send = <A, E>(
      target: Target,
      encoded: unknown,
      decode: Decode<A, E>
    ): Effect.Effect<A, E | ClientError.ClientError> =>
      Effect.clockWith((clock) =>
        sending(clock, target, admissionOf(target), exchange(target.path, wire.request(target.path, encoded)), decode)
      )

    const traced = <A, E>(target: Target, params: unknown, effect: Effect.Effect<A, E>) => {
      const counted = Effect.onExit(effect, Metrics.callEnded(target.path))
      return Effect.tracerWith((tracer) =>
        tracer === builtInTracer
          // Spans of the built-in tracer go nowhere: none is made, here or by the HttpClient (B9: a
          // tenth of the client's CPU per call).
          ? Effect.withTracerEnabled(counted, false)
          : Effect.withSpan(counted, Spans.nameOf(target), Spans.optionsOf(target, params))
      )
    }

    // A call of `op`: its parameters encoded by `payload`, sent, its answer decoded, on its span.
    const run = (op: Operation.Any, params: unknown, payload: Schema.Schema.AnyNoContext | undefined) =>
      traced(
        op,
        params,
        Effect.flatMap(encoded(op.path, payload, params), (body) => send(op, body, Envelope.decode(op)))
      )

    const budget = Effect.all({ requests: pacing.budget(user), creations: quota.budget(user) })
    const estimateCreations = (count: number, deadline: DateTime.DateTime) => quota.estimate(user, count, deadline)
    // A call by path: the contract's flags of a known path (an unknown one is not safe to repeat).
    return ClientMethods.withCall({ ...Operations, isPageable: Operation.isPageable }, {
      run,
      paginate: (fetch) => Paginate.stream(fetch as (position: Paginate.Position) => Effect.Effect<Page.Page<unknown>>),
      anyPayload: Operation.UnknownPayload,
      anySuccess: Schema.Unknown
    }, { budget, estimateCreations }) as unknown as CommunityApiClient.Client
  })
