/**
 * A call of a sans-I/O object run at the current time in a line's effect: how the core names, without
 * knowing Effect, the type a line gives back for such a call. A type lambda in the manner of Effect's
 * own `TypeLambda`: a line declares `interface AtClock extends Timed.Lambda { readonly type:
 * Effect.Effect<this["A"]> }` and hands the core a {@link Run} that reads its clock (so that its test
 * clock drives the object); the core lists the calls once, for both lines.
 *
 * @since 0.1.0
 */

/**
 * The type a line gives back for a call that answers `A`: `type`, read with `A` set.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface Lambda {
  readonly A: unknown
  readonly type: unknown
}

/**
 * The type `F` gives back for a call that answers `A`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Kind<F extends Lambda, A> = (F & { readonly A: A })["type"]

/**
 * How a line runs a call at the current time: `call` is given the time (epoch milliseconds) when the
 * line's effect runs, and its answer is the effect's.
 *
 * @since 0.1.0
 * @category models
 */
export type Run<F extends Lambda> = <A>(call: (now: number) => A) => Kind<F, A>
