/**
 * The client on the Effect 4 line, the same composition of small steps as the Effect 3 line's:
 *
 *     the call's deadline; in flight, an unknown outcome   (deadline.ts)
 *       the attempts as the core's plan says               (retrying.ts, core CallPlan)
 *           numbered attempt:
 *             admission: creation quota, pacing permit     (limiting.ts)
 *               exchange: HttpClient built once, timeout,  (exchange.ts, http.ts)
 *                 body within its bound                    (body.ts)
 *             decode the envelope; error 9 gives the creation back, error 5 holds back its limit
 */
import * as Admission from "@community-api/core/Admission"
import * as CallFailure from "@community-api/core/CallFailure"
import * as CallPlan from "@community-api/core/CallPlan"
import * as ClientMethods from "@community-api/core/ClientMethods"
import * as JsonBody from "@community-api/core/JsonBody"
import * as OptionRules from "@community-api/core/OptionRules"
import * as ParameterWords from "@community-api/core/ParameterWords"
import * as Spans from "@community-api/core/Spans"
import * as UserKey from "@community-api/core/UserKey"
import { ApiError, Envelope, Operation, Operations } from "@community-api/effect4-schema"
import { type DateTime, Duration, Effect, Redacted, Schema, SchemaIssue, Tracer } from "effect"
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
import * as Retrying from "./retrying.js"

const defaultTimeout = Duration.seconds(30)
const defaultDeadline = Duration.seconds(120)

/** What the call path needs to know of an operation. */
type Target = Pick<Operation.Any, "section" | "method" | "path" | "creation" | "safeToRepeat">

/** The HttpClient's tracing is off for every request of a call with no tracer installed. */
const everyRequest = (): boolean => true

/** How a call reads the envelope of its answer. */
type Decode<A, E> = (body: unknown) => Effect.Effect<A, E | Envelope.EnvelopeDecodeError>

/**
 * Reads the envelope of an admitted answer: never untyped. An answer that is not the operation's
 * envelope, or a failure of the decoder itself, is a `ResponseDecodeError` with the core's bounded
 * reason. An error 9 gives the admission back; an error 5 holds back the limit that refused it.
 */
const decoded = <A, E>(target: Target, decode: Decode<A, E>) => (admitted: Limiting.Admitted<unknown>) => {
  const unreadable = (reason: string) =>
    Effect.fail(new ClientError.ResponseDecodeError({ operation: target.path, reason }))
  return Effect.suspend(() => decode(admitted.answer)).pipe(
    Effect.catchDefect((defect) => unreadable(CallFailure.decoderFailed(defect))),
    Effect.catchIf(
      (error) => error instanceof Envelope.EnvelopeDecodeError,
      (error) => unreadable(CallFailure.decodeReason(error.reason))
    ),
    Effect.tapError((error) => Admission.stepAfter(target, admitted, error, Effect.void))
  ) as Effect.Effect<A, E | ClientError.ResponseDecodeError>
}

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
  let reason: string
  try {
    const failures = failuresOf(error.issue).issues.map((issue) => ({
      message: issue.message,
      path: (issue.path ?? []).map((segment) => typeof segment === "object" ? segment.key : segment)
    }))
    reason = ParameterWords.encodeRefusal(Operation.payloadJsonSchema(payload), params, failures)
  } catch {
    reason = error.message
  }
  return new ClientError.RequestEncodeError({ operation, reason })
}

/**
 * The key of the client's user for the shared limiters: its `userKey`, refused at once by the core's
 * rule when empty or blank (so both lines agree), or a stable key of the token, never the token.
 */
const userKeyOf = (config: CommunityApiClient.ClientConfig): Effect.Effect<string> => {
  if (config.userKey === undefined) return Effect.succeed(UserKey.ofToken(Redacted.value(config.token)))
  const problem = UserKey.problem(config.userKey)
  return problem === undefined
    ? Effect.succeed(config.userKey)
    : Effect.die(new ClientError.InvalidConfig({ option: "userKey", reason: problem }))
}

/** Makes a client over the `HttpClient` of the context. */
export const make = (
  config: CommunityApiClient.ClientConfig
): Effect.Effect<CommunityApiClient.Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    yield* Metrics.declare
    yield* Options.checked(() => OptionRules.client(config, Options.reading), () => Effect.void)
    const wire = yield* Http.make(config)
    // References: the process-wide limiters unless a layer provides others (see Pacing, CreationQuota).
    const pacing = yield* Pacing.Pacing
    const quota = yield* CreationQuota.CreationQuota
    const user = yield* userKeyOf(config)
    const policy: Retry.Policy = { ...Retry.defaultPolicy, ...config.retry }
    const onCreationLimit = config.onCreationLimit ?? "wait"
    const exchange = Exchange.make(wire.http, config.maxResponseBytes ?? JsonBody.defaultMaxBytes)
    const timeout = Duration.fromInputUnsafe(config.timeout ?? defaultTimeout)
    const deadline = Duration.fromInputUnsafe(config.deadline ?? defaultDeadline)
    const ordinary = Limiting.paced(pacing, user, config.lane)
    const admissionOf = (target: Target): Limiting.Admission =>
      target.creation ? Limiting.counted(quota, pacing, user, target.path, onCreationLimit, config.lane) : ordinary

    // The whole call of `target` with the encoded parameters, step around step.
    const send = <A, E>(
      target: Target,
      encoded: unknown,
      decode: Decode<A, E>
    ): Effect.Effect<A, E | ClientError.ClientError> => {
      const admission = admissionOf(target)
      const request = wire.request(target.path, encoded)
      return Deadline.bounded(target, deadline, timeout, ({ attempt, inFlight, rest }) => {
        const sent = admission.admit(inFlight(exchange(target.path, request)))
        const plan = CallPlan.make(target, policy.limitRetries)
        return Retrying.run(
          target.path,
          plan,
          policy.schedule,
          attempt(Effect.flatMap(sent, decoded(target, decode))),
          rest
        )
      }) as Effect.Effect<A, E | ClientError.ClientError>
    }

    const traced = <A, E>(target: Target, params: unknown, effect: Effect.Effect<A, E>) => {
      const counted = Effect.onExit(effect, Metrics.callEnded(target.path))
      return Effect.withFiber((fiber) =>
        fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer
          // Effect's own tracer, there when none is installed, exports its spans nowhere: none is made,
          // here or by the HttpClient (which would also put their ids in the request's headers).
          ? Effect.provideService(counted, HttpClient.TracerDisabledWhen, everyRequest)
          : Effect.withSpan(counted, Spans.nameOf(target), {
            kind: Spans.kind,
            // A stack trace per call costs more than the rest of the span; the span's name says where it is.
            captureStackTrace: Spans.captureStackTrace,
            attributes: Spans.attributesOf(target, params)
          })
      )
    }

    const execute = <Op extends Operation.Any>(
      op: Op,
      params: Operation.Params<Op>
    ): Effect.Effect<Operation.Success<Op>, CommunityApiClient.Errors<Op>> =>
      traced(
        op,
        params,
        Schema.encodeUnknownEffect(op.payload as Schema.Codec<unknown, unknown>)(params, everyProblem).pipe(
          Effect.mapError((error) => encodeError(op.path, op.payload, params, error)),
          Effect.flatMap((encoded) => send(op, encoded, Envelope.decode(op)))
        )
      ) as Effect.Effect<Operation.Success<Op>, CommunityApiClient.Errors<Op>>

    const page = <Op extends Operation.Pageable>(
      op: Op,
      params: CommunityApiClient.ListParams<Op>,
      position: Partial<Paginate.Position> = {}
    ) => execute(op, ClientMethods.pageParams(params, position) as Operation.Params<Op>)

    const stream = <Op extends Operation.Pageable>(op: Op, params: CommunityApiClient.ListParams<Op>) =>
      Paginate.stream((position) =>
        page(op, params, position) as Effect.Effect<
          { readonly items: ReadonlyArray<Operation.Item<Op>>; readonly total: number },
          CommunityApiClient.Errors<Op>
        >
      )

    const call = <A = unknown, P = Record<string, unknown>>(
      path: string,
      params?: P,
      options: CommunityApiClient.CallOptions<A, P> = {}
    ) => {
      const op: Operation.Any = {
        ...ClientMethods.byPath(path, Operations.byPath.get(path)),
        payload: Operation.UnknownPayload,
        success: options.success ?? Schema.Unknown,
        hasResponse: true
      }
      const encode = options.payload === undefined
        ? Effect.succeed(params ?? {})
        : Schema.encodeUnknownEffect(options.payload as Schema.Codec<unknown, unknown>)(params, everyProblem).pipe(
          Effect.mapError((error) => encodeError(path, options.payload!, params, error))
        )
      return traced(
        op,
        params,
        Effect.flatMap(encode, (encoded) => send(op, encoded, Envelope.decode(op)))
      ) as Effect.Effect<A, ApiError.ApiError | ApiError.UnexpectedApiError | ClientError.ClientError>
    }

    const { sections, streams } = ClientMethods.methodTables(Operations.sectionNames, Operations.inSection, {
      execute: (op, params) => execute(op, params as never),
      stream: (op, params) => stream(op as Operation.Pageable, params as never),
      isPageable: Operation.isPageable
    })

    const budget = Effect.all({ requests: pacing.budget(user), creations: quota.budget(user) })
    const estimateCreations = (count: number, deadline: DateTime.DateTime) => quota.estimate(user, count, deadline)
    return {
      ...sections,
      streams,
      execute,
      page,
      stream,
      call,
      budget,
      estimateCreations
    } as unknown as CommunityApiClient.Client
  })
