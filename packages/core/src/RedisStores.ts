/**
 * The two stores of either line's `RedisStore`, the pacing permits and the creation counts, as data: the
 * limiter each serves (as errors name it), the rules of its options and its settings with their
 * defaults; and how a line builds each of them ({@link store}) with its own effects (the Redis module
 * loaded on demand, the connection, the memory store, the fallback between them).
 *
 * @since 0.1.0
 */
import * as CreationBook from "./CreationBook.js"
import type * as Limits from "./Limits.js"
import * as OptionRules from "./OptionRules.js"
import type * as RedisConnection from "./RedisConnection.js"
import type { Kind as Of, TypeLambda } from "./RedisCounts.js"
import * as RedisStoreOptions from "./RedisStoreOptions.js"
import * as StoreFallback from "./StoreFallback.js"

/**
 * A limiter of a store, as its errors name it.
 *
 * @since 0.1.0
 * @category models
 */
export type Limiter = "pacing" | "creation quota"

/**
 * One store: `O` the options given (a line's, its durations read as milliseconds by the line), `S`
 * its settings.
 *
 * @since 0.1.0
 * @category models
 */
export interface Kind<O, S> {
  /** The limiter it serves, as its errors name it. */
  readonly limiter: Limiter
  /** The first of the options given that is refused, if any (`OptionRules`). */
  readonly refusal: (options: O, reading: OptionRules.Reading) => OptionRules.Refusal | undefined
  /** Its settings, with their defaults; `leaseMillis` the lease given, if any. */
  readonly settings: (options: O, leaseMillis: number | undefined) => S
}

/**
 * The store of the pacing permits.
 *
 * @since 0.1.0
 * @category constants
 */
export const permits: Kind<
  { readonly limit?: number | undefined; readonly interactiveShare?: number | undefined },
  RedisStoreOptions.Permits
> = {
  limiter: "pacing",
  refusal: (options, reading) =>
    OptionRules.store(options, reading) ?? OptionRules.pacing({ limit: options.limit }, reading),
  settings: (options, leaseMillis) => RedisStoreOptions.permits({ ...options, leaseMillis })
}

/**
 * The store of the creation counts.
 *
 * @since 0.1.0
 * @category constants
 */
export const counts: Kind<CreationBook.Settings, Limits.CreationSettings> = {
  limiter: "creation quota",
  refusal: (options, reading) => OptionRules.store(options, reading) ?? OptionRules.quota(options),
  settings: (options) => CreationBook.settingsOf(options)
}

/**
 * What {@link store} needs of a line, over its effects `F` (of a result, failing with its
 * `LimiterUnavailable` `U`, in the store's scope): how it reads its options and refuses them (a defect
 * of its `InvalidConfig`), keeps a URL secret (`Secret`), loads its Redis module `M` on demand (failing
 * with the `LimiterUnavailable` of the fields `why` gives) and connects it (`C`), and warns once that a
 * store fell back to memory.
 *
 * @since 0.1.0
 * @category models
 */
export interface Line<F extends TypeLambda, M, C, U, Secret> {
  readonly reading: OptionRules.Reading
  readonly refused: <A>(refusal: OptionRules.Refusal) => Of<F, A>
  readonly secret: (url: string) => Secret
  readonly load: (
    why: (error: unknown) => { readonly limiter: Limiter; readonly store: string; readonly reason: string }
  ) => Of<F, M>
  readonly connect: (module: M, options: RedisConnection.Options<Secret>) => Of<F, C>
  readonly suspend: <A>(make: () => Of<F, A>) => Of<F, A>
  readonly matchEffect: <A, B>(
    effect: Of<F, A>,
    onFailure: (error: U) => Of<F, B>,
    onSuccess: (a: A) => Of<F, B>
  ) => Of<F, B>
  readonly flatMap: <A, B>(effect: Of<F, A>, f: (a: A) => Of<F, B>) => Of<F, B>
  readonly map: <A, B>(effect: Of<F, A>, f: (a: A) => B) => Of<F, B>
  readonly fail: <A>(error: U) => Of<F, A>
  readonly warnOnce: (error: U) => Of<F, void>
}

/**
 * The options every store of a `RedisStore` takes, as a line gives them (its URL maybe secret, its
 * durations its own).
 *
 * @since 0.1.0
 * @category models
 */
export interface Given {
  readonly url: unknown
  readonly prefix?: string | undefined
  readonly timeout?: unknown
  readonly lease?: unknown
  readonly onUnavailable?: StoreFallback.OnUnavailable | undefined
}

/**
 * A line's store `S` of settings `X`: over Redis (`redis`, with the module `M` and its connection
 * `C`), in this process's memory (`memory`), and `fallback` between the two.
 *
 * @since 0.1.0
 * @category models
 */
export interface Parts<F extends TypeLambda, M, C, X, S> {
  readonly redis: (module: M, connection: C, settings: X) => Of<F, S>
  readonly memory: (settings: X) => S
  readonly fallback: (primary: S, memory: S) => S
}

/**
 * Makes a store of `kind` from its options: refused at once when they cannot work; else over Redis
 * (`parts.redis`, once the module is loaded and connected), in this process's memory alone when the
 * module cannot be loaded and the options allow it (after the one warning), with `parts.fallback` to
 * memory when the options ask for it (`StoreFallback.build`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const store = <F extends TypeLambda, M, C, U, Secret, O extends Given, X, S>(
  line: Line<F, M, C, U, Secret>,
  kind: Kind<O, X>,
  parts: Parts<F, M, C, X, S>
) =>
(options: O): Of<F, S> =>
  line.suspend(() => {
    const refusal = kind.refusal(options, line.reading)
    if (refusal !== undefined) return line.refused(refusal)
    const millisOf = (given: unknown) => given === undefined ? undefined : line.reading.millis(given)
    const settings = kind.settings(options, millisOf(options.lease))
    const url = typeof options.url === "string" ? options.url : String(line.reading.secret(options.url)?.text)
    const connection = RedisStoreOptions.connection({ ...options, timeoutMillis: millisOf(options.timeout) })
    const memory = () => parts.memory(settings)
    return line.matchEffect(
      line.load((error) => StoreFallback.moduleUnavailable(kind.limiter, url, error)),
      // Without the module, the memory store (after the one warning) unless the options ask to fail.
      (unavailable) =>
        StoreFallback.build(false, connection.onUnavailable) === "fail"
          ? line.fail(unavailable)
          : line.map(line.warnOnce(unavailable), memory),
      (redis) =>
        line.map(
          line.flatMap(
            line.connect(redis, { ...connection, url: line.secret(url) }),
            (connected) => parts.redis(redis, connected, settings)
          ),
          (primary) =>
            StoreFallback.build(true, connection.onUnavailable) === "fallback"
              ? parts.fallback(primary, memory())
              : primary
        )
    )
  })
