/**
 * What both lines' drivers do alike, kept here so that each driver holds only its Effect: the plain
 * options made into a configuration, a member of the client found by its path, a call as a thenable.
 */
import type { Call, ClientOptions, Outcome, RetryOptions } from "./Driver.js"

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
