/**
 * The types of a client's methods as both Effect lines derive them from the contract: which of the
 * client's own errors a call of an operation can fail with (by its flags), a method that takes the
 * operation's parameters (optional when none is required), and the tables of methods by section and
 * of streams by list operation. Each line puts in its own values: its operations, its errors and what
 * a method gives (an `Effect` or a `Stream` of that line).
 *
 * TypeScript has no types that take types: a line hands its types of an operation to the core as
 * {@link Kinds}, an interface whose members read their operation as `this["Op"]`.
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
 * A line's types of an operation, which reads it as `this["Op"]`: the types of its operations, of a
 * list operation, of its parameters, of what a call of it gives (its success or its errors) and of its
 * items as a stream gives them.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface Kinds {
  readonly Op: unknown
  readonly Any: unknown
  readonly Pageable: unknown
  readonly params: unknown
  readonly result: unknown
  readonly items: unknown
}

/**
 * The line's types `K` of the operation `Op`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Of<K extends Kinds, Op> = K & { readonly Op: Op }

/**
 * The method of the operation `Op`: takes its parameters, gives what a call of it gives.
 *
 * @since 0.1.0
 * @category type-level
 */
export type MethodOf<K extends Kinds, Op> = Method<Of<K, Op>["params"], Of<K, Op>["result"]>

/**
 * The stream of the list operation `Op`: takes its parameters but their position, gives its items.
 *
 * @since 0.1.0
 * @category type-level
 */
export type StreamOf<K extends Kinds, Op> = Method<ListParams<Of<K, Op>["params"]>, Of<K, Op>["items"]>

/**
 * What the line's types `K` give of each operation, by section and method: `client.bots.enable`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Sections<Contract, K extends Kinds> = {
  readonly [S in keyof Contract]: {
    readonly [M in keyof Contract[S]]: Contract[S][M] extends K["Any"] ? MethodOf<K, Contract[S][M]> : never
  }
}

/**
 * The stream of each list operation, by section and method; the other operations have none:
 * `client.streams.bots.get`.
 *
 * @since 0.1.0
 * @category type-level
 */
export type Streams<Contract, K extends Kinds> = {
  readonly [S in keyof Contract]: {
    readonly [M in keyof Contract[S] as Contract[S][M] extends K["Pageable"] ? M : never]: Contract[S][M] extends
      K["Pageable"] ? StreamOf<K, Contract[S][M]>
      : never
  }
}

/**
 * The methods of a client that take an operation: `execute`, `page` and `stream`; `Position` is the
 * line's position of a page.
 *
 * @since 0.1.0
 * @category type-level
 */
export interface Methods<K extends Kinds, Position> {
  /** Calls any operation of the contract. */
  readonly execute: <Op extends K["Any"]>(op: Op, params: Of<K, Op>["params"]) => Of<K, Op>["result"]
  /** One page of a list operation; `count` defaults to 500. */
  readonly page: <Op extends K["Pageable"]>(
    op: Op,
    params: ListParams<Of<K, Op>["params"]>,
    position?: Partial<Position>
  ) => Of<K, Op>["result"]
  /** Every item of a list operation, page after page. */
  readonly stream: <Op extends K["Pageable"]>(op: Op, params: ListParams<Of<K, Op>["params"]>) => Of<K, Op>["items"]
}
