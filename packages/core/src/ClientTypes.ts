/**
 * The types of a client's methods as both Effect lines derive them from the contract: which of the
 * client's own errors a call of an operation can fail with (by its flags), a method that takes the
 * operation's parameters (optional when none is required), and the tables of methods by section and
 * of streams by list operation. Each line puts in its own values: its operations, its errors and what
 * a method gives (an `Effect` or a `Stream` of that line).
 *
 * TypeScript has no types that take types; a line hands a type of an operation to
 * {@link Sections} and {@link Streams} as a {@link OfOperation}, an interface whose `type` reads its
 * operation as `this["Op"]`.
 *
 * @since 0.1.0
 */
import type * as RetryTable from "./RetryTable.js"

/**
 * The client's own errors a call of an operation with `Flags` can fail with: all of `Own` but the quota
 * error (`Quota`) and the unknown outcome (`Unknown`), then the quota error only where the operation
 * counts against the creation limit, and the unknown outcome only where it is not safe to repeat (a
 * creation never is).
 *
 * @since 0.1.0
 * @category type-level
 */
export type OwnErrors<Flags extends RetryTable.Flags, Own, Quota, Unknown> =
  | Exclude<Own, Quota | Unknown>
  | (Flags["creation"] extends false ? never : Quota)
  | (Flags["safeToRepeat"] extends true ? Flags["creation"] extends false ? never : Unknown : Unknown)

/**
 * A method that takes `Params` and gives `Result`: the parameters may be left out when none of them is
 * required.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Method<Params, Result> = {} extends Params ? (params?: Params) => Result
  : (params: Params) => Result

/**
 * The parameters of a list operation without its position (`count` and `offset`), which a stream and
 * a page set.
 *
 * @since 0.1.0
 * @category type-level
 */
export type ListParams<Params> = Omit<Params, "count" | "offset">

/**
 * A type of an operation: `type` reads the operation as `this["Op"]`.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface OfOperation {
  readonly Op: unknown
  readonly type: unknown
}

/**
 * The type `F` gives of the operation `Op`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Apply<F extends OfOperation, Op> = (F & { readonly Op: Op })["type"]

/**
 * What `F` gives of each operation (of type `Any`), by section and method: `client.bots.enable`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Sections<Contract, Any, F extends OfOperation> = {
  readonly [S in keyof Contract]: {
    readonly [M in keyof Contract[S]]: Contract[S][M] extends Any ? Apply<F, Contract[S][M]> : never
  }
}

/**
 * What `F` gives of each list operation (of type `Pageable`), by section and method; the other
 * operations have none: `client.streams.bots.get`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Streams<Contract, Pageable, F extends OfOperation> = {
  readonly [S in keyof Contract]: {
    readonly [M in keyof Contract[S] as Contract[S][M] extends Pageable ? M : never]: Contract[S][M] extends Pageable
      ? Apply<F, Contract[S][M]>
      : never
  }
}
