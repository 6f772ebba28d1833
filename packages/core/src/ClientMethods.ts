/**
 * The methods of a client as both Effect lines build them from the contract: a table of methods per
 * section (`client.bots.enable`, `client.streams.bots.list`), the operation of a call by path (the
 * contract's, or an undocumented one, E17), and the position of a page. The lines put their Effects
 * in the tables.
 *
 * @since 0.1.0
 */
import * as ErrorCodes from "./ErrorCodes.js"
import * as Operation from "./Operation.js"
import * as Wire from "./Wire.js"

/**
 * The methods of every section: for each section name, each operation's method name and what `f`
 * makes of the operation (an operation for which `f` gives `undefined` has none).
 *
 * @since 0.1.0
 * @category constructors
 */
export const bySection = <Op extends { readonly method: string }, F>(
  sectionNames: ReadonlyArray<string>,
  inSection: (name: never) => ReadonlyArray<Op>,
  f: (op: Op) => F | undefined
): Record<string, Record<string, F>> => {
  const table: Record<string, Record<string, F>> = {}
  for (const name of sectionNames) {
    const methods: Record<string, F> = {}
    for (const op of inSection(name as never)) {
      const fn = f(op)
      if (fn !== undefined) methods[op.method] = fn
    }
    table[name] = methods
  }
  return table
}

/**
 * The method tables of a client: `sections`, a method per operation that runs it with its parameters
 * (none given reads as `{}`), and `streams`, a method per list operation that streams its pages.
 *
 * @since 0.1.0
 * @category constructors
 */
export const methodTables = <Op extends { readonly method: string }, R, S>(
  sectionNames: ReadonlyArray<string>,
  inSection: (name: never) => ReadonlyArray<Op>,
  run: {
    readonly execute: (op: Op, params: unknown) => R
    readonly stream: (op: Op, params: unknown) => S
    readonly isPageable: (op: Op) => boolean
  }
): {
  readonly sections: Record<string, Record<string, (params?: unknown) => R>>
  readonly streams: Record<string, Record<string, (params?: unknown) => S>>
} => ({
  sections: bySection(sectionNames, inSection, (op) => (params?: unknown) => run.execute(op, params ?? {})),
  streams: bySection(
    sectionNames,
    inSection,
    (op) => run.isPageable(op) ? (params?: unknown) => run.stream(op, params ?? {}) : undefined
  )
})

/**
 * What a call by path knows of an operation the contract does not declare: every code, no access
 * check, neither a creation nor safe to repeat, not known to only read, undocumented (E17).
 *
 * @since 0.1.0
 * @category models
 */
export interface Undeclared {
  readonly section: string
  readonly method: string
  readonly path: `${string}/${string}`
  readonly errorCodes: ReadonlyArray<ErrorCodes.ErrorCode>
  readonly roleGroup: "none"
  readonly creation: false
  readonly safeToRepeat: false
  readonly reads: false
  readonly item: undefined
  readonly documented: false
  readonly rule: string
  readonly summary: string
}

/**
 * The operation a call by `path` reads: the contract's (`known`), or an {@link Undeclared} one whose
 * section and method are the path's segments.
 *
 * @since 0.1.0
 * @category utils
 */
export const byPath = <Op>(path: string, known: Op | undefined): Op | Undeclared => {
  if (known !== undefined) return known
  const [section = "", method = ""] = path.split("/")
  return {
    section,
    method,
    path: path as `${string}/${string}`,
    errorCodes: ErrorCodes.errorCodes,
    roleGroup: "none",
    creation: false,
    safeToRepeat: false,
    reads: false,
    item: undefined,
    documented: false,
    rule: Operation.undocumentedRule,
    summary: "called by path"
  }
}

/**
 * The operation a call by `path` runs ({@link byPath} of the `contract`'s operation at `path`): its parameters encoded by the caller's schema
 * if any (the line's `payload` for the operation reads any), its answer decoded by `success`, and an
 * answer always expected.
 *
 * @since 0.1.0
 * @category utils
 */
export const calledByPath = <Op, Payload, Success>(
  path: string,
  contract: { readonly get: (path: string) => Op | undefined },
  payload: Payload,
  success: Success
): (Op | Undeclared) & { readonly payload: Payload; readonly success: Success; readonly hasResponse: true } => ({
  ...byPath(path, contract.get(path)),
  payload,
  success,
  hasResponse: true
})

/**
 * The parameters of a page at `position`: the most records a page holds from offset 0 unless told.
 *
 * @since 0.1.0
 * @category utils
 */
export const pageParams = <P>(
  params: P,
  position: { readonly count?: number | undefined; readonly offset?: number | undefined }
): P & { readonly count: number; readonly offset: number } => ({
  ...params,
  count: position.count ?? Wire.maxCount,
  offset: position.offset ?? 0
})

/**
 * The contract as a client reads it: its sections' names, the operations of each, and which of them
 * are lists.
 *
 * @since 0.1.0
 * @category models
 */
export interface Contract<Op> {
  readonly sectionNames: ReadonlyArray<string>
  readonly inSection: (name: never) => ReadonlyArray<Op>
  readonly isPageable: (op: Op) => boolean
}

/**
 * Where a page of `page` starts and how many records it holds, each defaulted by {@link pageParams}.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly count?: number | undefined
  readonly offset?: number | undefined
}

/**
 * The methods {@link client} makes: each section's table of methods under its name, beside the others.
 *
 * @since 0.1.0
 * @category models
 */
export type Methods<Op, R, S> = {
  readonly [section: string]: unknown
  readonly streams: Record<string, Record<string, (params?: unknown) => S>>
  readonly execute: (op: Op, params: unknown) => R
  readonly page: (op: Op, params: unknown, position?: Position) => R
  readonly stream: (op: Op, params: unknown) => S
}

/**
 * The methods of a client: a method per operation by section and a stream per list operation
 * (`streams`, {@link methodTables}), `execute`, `page` (one page at a position, {@link pageParams}),
 * `stream` (every item of a list, page after page of `page`, as the line's `paginate` reads them), and
 * the line's `others` (its call by path, its limiters' budget) as they are given.
 *
 * @since 0.1.0
 * @category constructors
 */
export const client = <Op extends { readonly method: string }, R, S, Others extends object>(
  contract: Contract<Op>,
  run: {
    readonly execute: (op: Op, params: unknown) => R
    readonly paginate: (fetch: (position: Position) => R) => S
  },
  others: Others
): Methods<Op, R, S> & Others => {
  const page = (op: Op, params: unknown, position: Position = {}): R =>
    run.execute(op, pageParams(params as object, position))
  const stream = (op: Op, params: unknown): S => run.paginate((position) => page(op, params, position))
  const { sections, streams } = methodTables(contract.sectionNames, contract.inSection, {
    execute: run.execute,
    stream,
    isPageable: contract.isPageable
  })
  return { ...sections, streams, execute: run.execute, page, stream, ...others }
}

/**
 * How a line runs an operation: `run` sends `op` with its parameters encoded by `payload` (the
 * operation's own, or the caller's schema of a call by path), `paginate` reads a list page after page,
 * and `anyPayload` and `anySuccess` are the line's schemas that take anything, for a call by path
 * without schemas.
 *
 * @since 0.1.0
 * @category models
 */
export interface Runner<Op, R, S, Schema> {
  readonly run: (op: Op, params: unknown, payload: Schema | undefined) => R
  readonly paginate: (fetch: (position: Position) => R) => S
  readonly anyPayload: Schema
  readonly anySuccess: Schema
}

/**
 * The schemas of a call by path, each optional: `success` decodes the answer, `payload` encodes the
 * parameters.
 *
 * @since 0.1.0
 * @category options
 */
export interface CallSchemas<Schema> {
  readonly success?: Schema | undefined
  readonly payload?: Schema | undefined
}

/**
 * The methods of a client ({@link client}) whose operations `runner` runs, each with its own payload,
 * with `call`: a call by path with the contract's flags of a known path (an unknown one is not safe to
 * repeat, {@link calledByPath}) and the caller's schemas, or schemas that take anything.
 *
 * @since 0.1.0
 * @category constructors
 */
export const withCall = <Op extends { readonly method: string; readonly payload: Schema }, R, S, Schema, Others>(
  contract: Contract<Op> & { readonly byPath: { readonly get: (path: string) => Op | undefined } },
  runner: Runner<Op, R, S, Schema>,
  others: Others
) =>
  client(contract, { execute: (op, params) => runner.run(op, params, op.payload), paginate: runner.paginate }, {
    call: (path: string, params?: unknown, options: CallSchemas<Schema> = {}): R =>
      runner.run(
        // An undeclared path reads as an operation of the contract (`byPath`), not safe to repeat.
        calledByPath(path, contract.byPath, runner.anyPayload, options.success ?? runner.anySuccess) as unknown as Op,
        params,
        options.payload
      ),
    ...others
  })
