/**
 * The client on the Effect 4 line, the same composition of small steps as the Effect 3 line's:
 *
 *     the call's deadline; in flight, an unknown outcome   (deadline.ts)
 *       the attempts as the core's plan says               (steps.ts, core CallSteps, CallPlan)
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
import { Envelope, Operation, Operations, type Page } from "@community-api/effect4-schema"
import { type Clock, type DateTime, Effect, Schema, SchemaIssue, Tracer } from "effect"
import { HttpClient } from "effect/http"
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

/** The HttpClient's tracing is off for every request of a call with no tracer installed. */
const everyRequest = (): boolean => true

/** How a call reads the envelope of its answer. */
type Decode<A, E> = (body: unknown) => Effect.Effect<A, E | Envelope.EnvelopeDecodeError>

/** The schema's failures with their paths, one entry per problem. */
const failuresOf = SchemaIssue.makeFormatterStandardSchemaV1()

/** Every refused parameter is told, not the first alone. */
const everyProblem = { errors: "all" } as const

/**
 * Parameters refused by the payload's schema: each one, in the words the command line and the MCP
 * server use too (the core's `ParameterWords`), from the payload's JSON Schema; a payload the JSON
 * Schema cannot describe is told in the schema's own words.
 */
const encodeError = (
  operation: string,
  payload: Schema.Top,
  params: unknown,
  error: Schema.SchemaError
): ClientError.RequestEncodeError => {
  const reason = ParameterWords.encodeReason(params, {
    schema: () => Operation.payloadJsonSchema(payload),
    failures: () =>
      failuresOf(error.issue).issues.map((issue) => ({
        message: issue.message,
        path: (issue.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)
      })),
    otherwise: () => error.message
  })
  return new ClientError.RequestEncodeError({ operation, reason })
}

/** The parameters encoded by `payload`; without one they are sent as given (`{}` when none). */
const encoded = (operation: string, payload: Schema.Top | undefined, params: unknown) =>
  payload === undefined
    ? Effect.succeed(params ?? {})
    : Schema.encodeUnknownEffect(payload as Schema.Codec<unknown, unknown>)(params, everyProblem).pipe(
      Effect.mapError((error) => encodeError(operation, payload, params, error))
    )

/** Every item of a list, page after page of `fetch` (the pages of a list operation's calls). */
const paginate = (fetch: (position: Paginate.Position) => Effect.Effect<unknown, unknown>) =>
  Paginate.stream(fetch as (position: Paginate.Position) => Effect.Effect<Page.Page<unknown>, unknown>)

/** Makes a client over the `HttpClient` of the context. */
export const make = (
  config: CommunityApiClient.ClientConfig
): Effect.Effect<CommunityApiClient.Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    yield* Metrics.declare
    yield* Options.checked(() => OptionRules.client(config, Options.reading), () => Effect.void)
    // Each option given or its default, and the user: the core's, as on the Effect 3 line.
    const { lane, maxResponseBytes, onCreationLimit, user, ...bounds } = ClientSettings.of(config, Options.reading)
    const wire = yield* Http.make(config)
    // References: the process-wide limiters unless a layer provides others (see Pacing, CreationQuota).
    const pacing = yield* Pacing.Pacing
    const quota = yield* CreationQuota.CreationQuota
    const policy: Retry.Policy = { ...Retry.defaultPolicy, ...config.retry }
    const exchange = Exchange.make(wire.http, maxResponseBytes)
    const ordinary = Limiting.paced(pacing, user, lane)
    const admissionOf = (target: Target): Limiting.Admission =>
      target.creation ? Limiting.counted(quota, pacing, user, target.path, onCreationLimit, lane) : ordinary
    // Each call's steps, its attempts and its deadline: the core's, over this line's effects.
    const sending = CallSteps.sender<Steps.F, Clock.Clock>({
      effects: Deadline.effects,
      retries: Steps.retries(policy.schedule),
      decoding: Steps.decoding,
      errors: Deadline.errors,
      settings: bounds,
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
      return Effect.withFiber((fiber) =>
        fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer
          // Effect's own tracer, there when none is installed, exports its spans nowhere: none is made,
          // here or by the HttpClient (which would also put their ids in the request's headers).
          ? Effect.provideService(counted, HttpClient.TracerDisabledWhen, everyRequest)
          : Effect.withSpan(counted, Spans.nameOf(target), Spans.optionsOf(target, params))
      )
    }

    // A call of `op`: its parameters encoded by `payload`, sent, its answer decoded, on its span.
    const run = (op: Operation.Any, params: unknown, payload: Schema.Top | undefined) =>
      traced(
        op,
        params,
        Effect.flatMap(encoded(op.path, payload, params), (body) => send(op, body, Envelope.decode(op)))
      )

    const budget = Effect.all({ requests: pacing.budget(user), creations: quota.budget(user) })
    const estimateCreations = (count: number, deadline: DateTime.DateTime) => quota.estimate(user, count, deadline)
    // The methods, and a call by path with the contract's flags of a known path (the core's).
    const runner = { run, paginate, anyPayload: Operation.UnknownPayload, anySuccess: Schema.Unknown }
    const methods = ClientMethods.withCall({ ...Operations, isPageable: Operation.isPageable }, runner, {
      budget,
      estimateCreations
    })
    return methods as unknown as CommunityApiClient.Client
  })
