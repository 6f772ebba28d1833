/**
 * What both lines' drivers do alike, kept here so that each driver holds only its Effect: the plain
 * options made into a configuration, a member of the client found by its path, a call as a thenable.
 */
import type { Call, ClientOptions, Failure, Outcome, RetryOptions } from "./Driver.js"

/** How a line makes the values its configuration holds. */
export interface Makers<Duration, Secret, Policy> {
  readonly millis: (millis: number) => Duration
  readonly secret: (text: string) => Secret
  /** The retry policy of plain delays, or `"never"`. */
  readonly retry: (retry: RetryOptions | "never") => Policy
}

/** The configuration a client of the world gets from plain options: only the fields given. */
export const configOf = <Duration, Secret, Policy>(
  defaults: { readonly baseUrl: string; readonly token: string },
  options: ClientOptions,
  make: Makers<Duration, Secret, Policy>
) => {
  const given = <K extends string, V>(key: K, value: V | undefined) =>
    (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
  return {
    baseUrl: options.baseUrl ?? defaults.baseUrl,
    token: make.secret(options.token ?? defaults.token),
    ...given("auth", options.auth),
    ...given("timeout", options.timeout === undefined ? undefined : make.millis(options.timeout)),
    ...given("deadline", options.deadline === undefined ? undefined : make.millis(options.deadline)),
    ...given("maxResponseBytes", options.maxResponseBytes),
    ...given("retry", options.retry === undefined ? undefined : make.retry(options.retry)),
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
