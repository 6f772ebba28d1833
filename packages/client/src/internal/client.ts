import { ApiError, Envelope, Operation, Operations } from "@community-api/schema"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpClientError } from "@effect/platform"
import { Duration, Effect, Hash, Option, ParseResult, Predicate, Redacted, Schedule, Schema } from "effect"
import * as ClientError from "../ClientError.js"
import type * as CommunityApiClient from "../CommunityApiClient.js"
import * as CreationQuota from "../CreationQuota.js"
import * as Pacing from "../Pacing.js"
import * as Paginate from "../Paginate.js"
import * as Retry from "../Retry.js"

const defaultTimeout = Duration.seconds(30)

/** What the send loop needs to know of an operation. */
type Target = Pick<Operation.Any, "section" | "method" | "path" | "creation" | "safeToRepeat">

const normalizeBaseUrl = (input: string | URL): string => {
  const url = new URL(String(input))
  if (url.search !== "" || url.username !== "" || url.password !== "") {
    throw new Error("the base URL must carry no query string and no credentials")
  }
  return url.toString().replace(/\/+$/, "")
}

/** A stable key of the token for the shared limiters; the token itself is never kept as a key. */
const userKeyOf = (token: Redacted.Redacted<string>): string => {
  const value = Redacted.value(token)
  return `token:${Hash.string(value).toString(36)}:${Hash.string(value.split("").reverse().join("")).toString(36)}`
}

const attributesOf = (target: Target, params: unknown): Record<string, unknown> => {
  const attributes: Record<string, unknown> = {
    "community_api.operation": target.path,
    "community_api.section": target.section,
    "community_api.method": target.method,
    "community_api.creation": target.creation,
    "community_api.safe_to_repeat": target.safeToRepeat
  }
  if (Predicate.hasProperty(params, "group_id")) attributes["community_api.group_id"] = params.group_id
  if (Predicate.hasProperty(params, "channel")) attributes["community_api.channel"] = params.channel
  return attributes
}

// The platform's own message names the URL (which never holds the token); the cause names the socket error.
const transportReason = (error: HttpClientError.HttpClientError): string => {
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ""
  return `${error.reason}${error.description === undefined ? "" : `: ${error.description}`}${cause}`
}

const reasonOf = (error: unknown): string => {
  if (Predicate.isTagged(error, "TimeoutError")) return "timeout"
  if (Predicate.isTagged(error, "TransportError")) return `transport: ${(error as ClientError.TransportError).reason}`
  if (Predicate.hasProperty(error, "code")) return `error ${String(error.code)}`
  return "unknown failure"
}

/** @internal */
export const make = (
  config: CommunityApiClient.ClientConfig
): Effect.Effect<CommunityApiClient.Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const http = yield* HttpClient.HttpClient
    const pacing = Option.getOrElse(yield* Effect.serviceOption(Pacing.Pacing), () => Pacing.global)
    const quota = Option.getOrElse(yield* Effect.serviceOption(CreationQuota.CreationQuota), () => CreationQuota.global)
    const baseUrl = yield* Effect.try(() => normalizeBaseUrl(config.baseUrl)).pipe(
      Effect.orDieWith((cause) => new Error(`invalid base URL: ${String((cause as { error?: unknown }).error)}`))
    )
    const user = config.userKey ?? userKeyOf(config.token)
    const auth = config.auth ?? "header"
    const timeout = Duration.decode(config.timeout ?? defaultTimeout)
    const policy: Retry.Policy = { ...Retry.defaultPolicy, ...config.retry }
    const onCreationLimit = config.onCreationLimit ?? "wait"

    const requestOf = (target: Target, encoded: unknown): HttpClientRequest.HttpClientRequest => {
      const params = Predicate.isRecord(encoded) ? encoded : {}
      const request = HttpClientRequest.post(`${baseUrl}/${target.path}`).pipe(HttpClientRequest.acceptJson)
      return auth === "header"
        ? HttpClientRequest.bodyUnsafeJson(HttpClientRequest.bearerToken(request, config.token), params)
        : HttpClientRequest.bodyUnsafeJson(request, { ...params, api_key: Redacted.value(config.token) })
    }

    // One exchange: send, check the status, read JSON, within the timeout.
    const exchange = (target: Target, request: HttpClientRequest.HttpClientRequest) =>
      http.execute(request).pipe(
        Effect.mapError((error) =>
          new ClientError.TransportError({ operation: target.path, reason: transportReason(error) })
        ),
        Effect.flatMap((response) =>
          response.status === 200
            ? Effect.mapError(response.json, (error) =>
              error.reason === "Decode"
                ? new ClientError.ResponseDecodeError({ operation: target.path, reason: "the body is not JSON" })
                : new ClientError.TransportError({ operation: target.path, reason: error.description ?? error.reason }))
            // Read the body anyway, so the connection can be reused.
            : Effect.zipRight(
              Effect.ignore(response.text),
              Effect.fail(
                new ClientError.TransportError({ operation: target.path, reason: `HTTP status ${response.status}` })
              )
            )
        ),
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () =>
            new ClientError.TimeoutError({ operation: target.path, timeoutMillis: Duration.toMillis(timeout) })
        })
      )

    // The whole call: quota and pacing before every attempt, retries as the policy says.
    const send = <A, E>(
      target: Target,
      encoded: unknown,
      decode: (body: unknown) => Effect.Effect<A, E | Envelope.EnvelopeDecodeError>
    ): Effect.Effect<A, E | ClientError.ClientError> => {
      const request = requestOf(target, encoded)
      const decision = (error: unknown) => Retry.decide(target, error)
      // Suspended so that attempts are counted per run of the returned effect.
      return Effect.suspend(() => {
        let attempts = 0
        // A creation is counted before it waits for pacing, and again if a minute began meanwhile.
        const admitted: Effect.Effect<{ readonly taken: number | undefined; readonly body: unknown }, any> =
          target.creation
            ? Effect.flatMap(quota.acquire(user, target.path, onCreationLimit), (counted) =>
              pacing.withPermit(user)(
                Effect.flatMap(
                  quota.confirm(user, target.path, counted),
                  (taken) => Effect.map(exchange(target, request), (body) => ({ taken, body }))
                )
              ).pipe(
                Effect.catchIf(
                  (error) =>
                    Predicate.isTagged(error, "CreationQuotaExceeded") &&
                    (error as ClientError.CreationQuotaExceeded).window === "minute" && onCreationLimit === "wait",
                  () => admitted
                )
              ))
            : Effect.map(pacing.withPermit(user)(exchange(target, request)), (body) => ({ taken: undefined, body }))
        const attempt = Effect.gen(function*() {
          attempts++
          yield* Effect.annotateCurrentSpan("community_api.attempt", attempts)
          const { body, taken } = yield* admitted
          return yield* decode(body).pipe(
            Effect.mapError((error) =>
              error instanceof Envelope.EnvelopeDecodeError
                ? new ClientError.ResponseDecodeError({ operation: target.path, reason: error.reason })
                : error as E
            ),
            Effect.tapError((error) =>
              taken !== undefined && Predicate.isTagged(error, "KeyServiceUnavailableError")
                ? quota.refund(user, taken)
                : Effect.void
            )
          )
        })
        return attempt.pipe(
          Effect.tapError((error) =>
            decision(error) !== "wait-for-limit"
              ? Effect.void
              : target.creation
              ? quota.exhaustMinute(user)
              : pacing.penalize(user)
          ),
          Effect.retry({ while: (error) => decision(error) === "wait-for-limit", times: policy.limitRetries }),
          Effect.retry({
            schedule: policy.schedule as Schedule.Schedule<unknown, unknown>,
            while: (error) => decision(error) === "retry"
          }),
          Effect.catchIf(
            (error) => decision(error) === "outcome-unknown",
            (error) =>
              Effect.fail(new ClientError.OutcomeUnknownError({ operation: target.path, reason: reasonOf(error) }))
          )
        )
      }) as Effect.Effect<A, any>
    }

    const traced = <A, E>(target: Target, params: unknown, effect: Effect.Effect<A, E>) =>
      Effect.withSpan(effect, `CommunityApiClient.${target.section}.${target.method}`, {
        kind: "client",
        // A stack trace per call costs more than the rest of the span; the span's name says where it is.
        captureStackTrace: false,
        attributes: attributesOf(target, params)
      })

    const execute = <Op extends Operation.Any>(
      op: Op,
      params: Operation.Params<Op>
    ): Effect.Effect<Operation.Success<Op>, CommunityApiClient.Errors<Op>> =>
      traced(
        op,
        params,
        Schema.encode(op.payload)(params).pipe(
          Effect.mapError((error) =>
            new ClientError.RequestEncodeError({
              operation: op.path,
              reason: ParseResult.TreeFormatter.formatErrorSync(error)
            })
          ),
          Effect.flatMap((encoded) => send(op, encoded, Envelope.decode(op)))
        )
      ) as Effect.Effect<Operation.Success<Op>, CommunityApiClient.Errors<Op>>

    const page = <Op extends Operation.Pageable>(
      op: Op,
      params: CommunityApiClient.ListParams<Op>,
      position: Partial<Paginate.Position> = {}
    ) => execute(op, { ...params, count: position.count ?? 500, offset: position.offset ?? 0 } as Operation.Params<Op>)

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
      const known = Operations.byPath.get(path)
      const [section = "", method = ""] = path.split("/")
      const op: Operation.Any = {
        ...(known ?? {
          section,
          method,
          path: path as `${string}/${string}`,
          errorCodes: ApiError.errorCodes,
          roleGroup: "none",
          creation: false,
          safeToRepeat: false,
          item: undefined,
          documented: false,
          rule: "E17",
          summary: "called by path"
        }),
        payload: Operation.UnknownPayload,
        success: options.success ?? Schema.Unknown,
        hasResponse: true
      }
      const encode = options.payload === undefined
        ? Effect.succeed(params ?? {})
        : Schema.encode(options.payload)(params as P).pipe(
          Effect.mapError((error) =>
            new ClientError.RequestEncodeError({
              operation: path,
              reason: ParseResult.TreeFormatter.formatErrorSync(error)
            })
          )
        )
      return traced(
        op,
        params,
        Effect.flatMap(encode, (encoded) => send(op, encoded, Envelope.decode(op)))
      ) as Effect.Effect<
        A,
        ApiError.ApiError | ApiError.UnexpectedApiError | ClientError.ClientError
      >
    }

    const bySection = <F>(f: (op: Operation.Any) => F | undefined) =>
      Object.fromEntries(
        Object.entries(Operations.sections).map(([name, ops]) => [
          name,
          Object.fromEntries(
            Object.entries(ops as Record<string, Operation.Any>).flatMap(([method, op]) => {
              const fn = f(op)
              return fn === undefined ? [] : [[method, fn]]
            })
          )
        ])
      )

    const sections = bySection((op) => (params?: unknown) => execute(op, (params ?? {}) as never))
    const streams = bySection((op) =>
      Operation.isPageable(op) ? (params?: unknown) => stream(op, (params ?? {}) as never) : undefined
    )

    return {
      ...sections,
      streams,
      execute,
      page,
      stream,
      call
    } as unknown as CommunityApiClient.Client
  })
