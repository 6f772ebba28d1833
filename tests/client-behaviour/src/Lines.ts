/**
 * What both lines' drivers do alike, kept here so that each driver holds only its Effect: the plain
 * options made into a configuration, a member of the client found by its path, a call as a thenable.
 */
import type {
  Call,
  ClientOptions,
  Failure,
  LimiterOptions,
  OptionsTarget,
  OptionValue,
  Outcome,
  Received,
  RedisOptions,
  RedisPacingOptions,
  Reply,
  RetryOptions
} from "./Driver.js"

/** How a line makes the values its configuration holds. */
export interface Makers<Duration, Secret, Policy> {
  readonly millis: (millis: number) => Duration
  readonly secret: (text: string) => Secret
  /** The retry policy of plain delays, or `"never"`. */
  readonly retry: (retry: RetryOptions | "never") => Policy
}

/** A scripted server's address and fake token (not the reference server's): where a world's clients go by default. */
export const scriptedServer = {
  baseUrl: "http://fake.local/external-api/v2",
  token: "thp_fake-secret-token-0123456789"
} as const

/** `{ [key]: value }`, or nothing when the value is left out: an optional field passed on only when given. */
export const given = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }

/** The fields of `fields` that are given: an object of optional fields passed on without the ones left out. */
export const defined = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }

/** `f` of the value, or `undefined` when it is left out. */
const mapped = <A, B>(value: A | undefined, f: (a: A) => B): B | undefined => value === undefined ? undefined : f(value)

/** The configuration a client of the world gets from plain options: only the fields given. */
export const configOf = <Duration, Secret, Policy>(
  defaults: { readonly baseUrl: string; readonly token: string },
  options: ClientOptions,
  make: Makers<Duration, Secret, Policy>
) => {
  return {
    baseUrl: options.baseUrl ?? defaults.baseUrl,
    token: make.secret(options.token ?? defaults.token),
    ...given("auth", options.auth),
    ...given("timeout", mapped(options.timeout, make.millis)),
    ...given("deadline", mapped(options.deadline, make.millis)),
    ...given("maxResponseBytes", options.maxResponseBytes),
    ...given("retry", mapped(options.retry, make.retry)),
    ...given("userKey", options.userKey),
    ...given("onCreationLimit", options.onCreationLimit),
    ...given("lane", options.lane)
  }
}

/** The function at `section/method` under `root` (a client, or its `streams`). */
export const member = <A>(root: object, path: string): A => {
  const [section, method] = path.split("/")
  const group = (root as Record<string, Record<string, unknown> | undefined>)[section!]
  const found = group?.[method!]
  if (typeof found !== "function") throw new Error(`no method ${path}`)
  return found.bind(group) as A
}

/** A call under way: `settle` waits for its outcome (once), `interrupt` stops it. */
export const call = <A>(settle: () => Promise<Outcome<A>>, interrupt: () => Promise<void>): Call<A> => {
  let outcome: Promise<Outcome<A>> | undefined
  return {
    then: (onFulfilled, onRejected) => (outcome ??= settle()).then(onFulfilled, onRejected),
    interrupt
  }
}

/** What a world's stores of their own record (`StoreCalls`), filled in as the limiters ask them. */
export const storeCalls = () => ({
  takes: 0,
  holds: [] as Array<{ readonly afterAnswerMillis: number; readonly afterTakeMillis: number }>,
  blocks: [] as Array<number>,
  verdicts: [] as Array<string>,
  failure: undefined as Failure | undefined
})

/** A record of {@link storeCalls}. */
export type StoreCalls = ReturnType<typeof storeCalls>

/** What a world records of the client (`Observed`), filled in as the client shows it. */
export const observed = () => ({
  spans: [] as Array<ObservedSpan>,
  logs: [] as Array<string>,
  urls: [] as Array<string>,
  serverLog: [] as Array<string>
})

/** A record of {@link observed}. */
export type Observing = ReturnType<typeof observed>

/** A span as recorded: its attributes filled in as they are set, its failure once it ended. */
export type ObservedSpan = {
  readonly name: string
  readonly attributes: Record<string, unknown>
  readonly events: Array<readonly [name: string, attributes: Readonly<Record<string, unknown>> | undefined]>
  failure?: string
}

/** An attribute's value as plain data: a string, number or boolean as it is, anything else as its `String`. */
export const plainValue = (value: unknown): unknown =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? value : String(value)

/** A log line as `Observed.logs` holds it: the level, the message and the annotations as JSON. */
export const logLine = (level: string, message: unknown, annotations: unknown): string =>
  `log ${level} ${JSON.stringify(message)} ${JSON.stringify(annotations)}`

/** The declaration at `section/method` under `root` (a line's `Operations`). */
export const operation = <A>(root: object, path: string): A => {
  const [section, method] = path.split("/")
  const found = (root as Record<string, Record<string, unknown> | undefined>)[section!]?.[method!]
  if (found === undefined) throw new Error(`no operation ${path}`)
  return found as A
}

/** A span of a line's recording tracer as `Observed.spans` holds it; `failure`, its cause rendered when it failed. */
export const span = (
  span: {
    readonly name: string
    readonly attributes: Iterable<readonly [string, unknown]>
    readonly events: ObservedSpan["events"]
  },
  failure: string | undefined
): ObservedSpan => ({
  name: span.name,
  attributes: Object.fromEntries([...span.attributes].map(([k, v]) => [k, plainValue(v)])),
  events: span.events,
  ...given("failure", failure)
})

/** An answer of a scripted server, as the line's response carries it. */
export interface Response {
  readonly text: string
  readonly status: number
  readonly contentType: string
  readonly headers: Readonly<Record<string, string>>
}

/** The response of a `Json` or `Text` reply. */
export const response = (reply: Extract<Reply, { _tag: "Json" | "Text" }>): Response =>
  reply._tag === "Json"
    ? { text: JSON.stringify(reply.body), status: 200, contentType: "application/json", headers: {} }
    : { text: reply.text, status: reply.status, contentType: reply.contentType, headers: reply.headers ?? {} }

/** A request as a scripted server records it, arrived at `at`. */
export const received = (
  at: number,
  request: { readonly url: string; readonly text: string; readonly authorization: string | undefined }
): Received => ({
  at,
  path: request.url.replace(/^.*\/external-api\/v2\//, ""),
  url: request.url,
  body: request.text === "" ? {} : JSON.parse(request.text),
  authorization: request.authorization
})

/** The options of the line's `Pacing.layer` a world's limiter options give. */
export const pacingOptions = (options: LimiterOptions) => ({
  ...given("limit", options.pacingLimit),
  ...given("hold", options.pacingHold),
  ...given("metrics", mapped(options.metricsPerUser, (max) => ({ perUser: { max } })))
})

/** The line's `RedisStore.Options` of plain ones (the URL `Redacted`, times as `Duration`). */
export const redisOptions = <Duration, Secret>(
  options: RedisOptions,
  make: Pick<Makers<Duration, Secret, unknown>, "millis" | "secret">
) => ({
  url: make.secret(options.url),
  ...given("prefix", options.prefix),
  ...given("timeout", mapped(options.timeoutMillis, make.millis)),
  ...given("onUnavailable", options.onUnavailable)
})

/** The line's `Pacing.RedisOptions` of plain ones. */
export const redisPacingOptions = <Duration, Secret>(
  options: RedisPacingOptions,
  make: Pick<Makers<Duration, Secret, unknown>, "millis" | "secret">
) => ({
  ...redisOptions(options, make),
  ...given("limit", options.limit),
  ...given("window", mapped(options.windowMillis, make.millis)),
  ...given("margin", mapped(options.marginMillis, make.millis)),
  ...given("lease", mapped(options.leaseMillis, make.millis))
})

/** The layers of the limiters of `RedisWorld.scripted`: `layerRedis`, or `layerRedisConfig` (`via: "config"`). */
export const redisLayers = <Duration, Secret>(
  limiters: RedisPacingOptions,
  make: Pick<Makers<Duration, Secret, unknown>, "millis" | "secret">,
  line: { readonly Pacing: any; readonly CreationQuota: any }
): [pacing: unknown, quota: unknown] => {
  const { url: _, ...pacing } = redisPacingOptions(limiters, make)
  const { url: __, ...quota } = redisOptions(limiters, make)
  return limiters.via === "config"
    ? [line.Pacing.layerRedisConfig(pacing), line.CreationQuota.layerRedisConfig(quota)]
    : [line.Pacing.layerRedis({ url: _, ...pacing }), line.CreationQuota.layerRedis({ url: __, ...quota })]
}

/** An option of a line, as plain data. */
type Maybe = { readonly _tag: "Some"; readonly value: unknown } | { readonly _tag: "None" }

/** How a call that did not succeed ended: its first failure, else its first defect, else interrupted; `cause` rendered. */
export const unsuccessful = (failure: Maybe, defect: Maybe, cause: string): Outcome<never> => ({
  ...(failure._tag === "Some"
    ? { _tag: "Failure", error: failure.value as Failure }
    : defect._tag === "Some"
    ? { _tag: "Defect", defect: defect.value }
    : { _tag: "Interrupted" }),
  cause
})

/** A span as a recording tracer keeps it, `P` the line's parent. */
export interface Recorded<P> {
  readonly name: string
  readonly attributes: Map<string, unknown>
  readonly events: Array<readonly [name: string, attributes: Record<string, unknown> | undefined]>
  readonly parent: P
}

/**
 * The fields of a recording tracer's span that both lines' `Tracer.Span` have alike, recording what it is
 * told into `recorded`; the line adds its own (`end`, `status`, ...).
 */
export const recordingSpan = <P>(recorded: Recorded<P>, spans: Array<Recorded<P>>) => {
  spans.push(recorded)
  return {
    _tag: "Span" as const,
    name: recorded.name,
    spanId: String(spans.length),
    traceId: "trace",
    parent: recorded.parent,
    attributes: recorded.attributes,
    sampled: true,
    attribute: (key: string, value: unknown) => void recorded.attributes.set(key, value),
    event: (name: string, _time: bigint, attributes?: Record<string, unknown>) =>
      void recorded.events.push([name, attributes]),
    addLinks: () => {}
  }
}

/**
 * The options of `Line.tryOptions` as the line takes them: `{ $millis }` made its duration and
 * `{ $redacted }` its `Redacted` (in `retry` too), anything else as it is; with the defaults of the
 * target (a client: the scripted server's base URL and fake token; a Redis store: an unreachable URL)
 * unless given, even as `undefined`.
 */
export const optionsOf = <Duration, Secret>(
  target: OptionsTarget,
  options: Readonly<Record<string, OptionValue>>,
  make: { readonly millis: (millis: number) => Duration; readonly secret: (text: string) => Secret }
): Record<string, unknown> => {
  const value = (given: unknown): unknown => {
    if (typeof given !== "object" || given === null) return given
    if ("$millis" in given) return make.millis(Number(given.$millis))
    if ("$redacted" in given) return make.secret(String(given.$redacted))
    return Object.fromEntries(Object.entries(given).map(([key, inner]) => [key, value(inner)]))
  }
  const defaults: Record<string, unknown> = target.startsWith("client")
    ? { baseUrl: scriptedServer.baseUrl, token: make.secret(scriptedServer.token) }
    : target.endsWith("Redis") || target.endsWith("RedisConfig")
    ? { url: "redis://127.0.0.1:1" }
    : {}
  return { ...defaults, ...Object.fromEntries(Object.entries(options).map(([key, given]) => [key, value(given)])) }
}

/** The variables `Line.tryOptions` reads its `"…Config"` targets' URL (none when given as `undefined`) and credentials from. */
export const optionsEnv = (target: OptionsTarget, options: Record<string, unknown>): Record<string, string> =>
  target === "clientConfig"
    ? { COMMUNITY_API_BASE_URL: scriptedServer.baseUrl, COMMUNITY_API_TOKEN: scriptedServer.token }
    : options["url"] === undefined
    ? {}
    : { COMMUNITY_API_REDIS_URL: String(options["url"]) }

/** A line's constructors of what `Line.tryOptions` makes, each giving the line's layer. */
export interface OptionsMakers {
  /** `make` of the client as a layer, over an `HttpClient` that dies when used. */
  readonly client: (config: any) => unknown
  /** `layerConfig` of `configFromEnv` with `mapped` set, over an `HttpClient` that dies when used. */
  readonly clientConfig: (mapped: any) => unknown
  /** The line's modules, their `layer`, `layerRedis` and `layerRedisConfig`. */
  readonly Pacing: any
  readonly CreationQuota: any
}

/** The layer of `target` with `options` (those of {@link optionsOf}), made by the line's `makers`. */
export const optionsLayer = (target: OptionsTarget, options: Record<string, unknown>, makers: OptionsMakers) => {
  // Through Config: the URL, or the base URL and the token, from the environment; the rest set in code.
  const { url: _, ...withoutUrl } = options
  const { baseUrl: __, token: ___, ...mapped } = options
  switch (target) {
    case "client":
      return makers.client(options)
    case "clientConfig":
      return makers.clientConfig(mapped)
    case "pacing":
    case "quota":
      return (target === "pacing" ? makers.Pacing : makers.CreationQuota).layer(options)
    case "pacingRedis":
    case "quotaRedis":
      return (target === "pacingRedis" ? makers.Pacing : makers.CreationQuota).layerRedis(options)
    case "pacingRedisConfig":
    case "quotaRedisConfig":
      return (target === "pacingRedisConfig" ? makers.Pacing : makers.CreationQuota).layerRedisConfig(withoutUrl)
  }
}
