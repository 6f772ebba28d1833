/**
 * What each tool does when called: its arguments checked against the operation's payload schema (a
 * refusal names each parameter once, and nothing is sent), the call made through the client, and the
 * answer or the error put in the form of {@link Answer}. A list answer holds what fits the server's
 * budget of characters ({@link Budget}), whatever `all` asks, and says where to go on. A tool never
 * fails as a protocol error: every failure is a tool error the assistant can read.
 *
 * @since 0.1.0
 */
import type * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Paginate from "@community-api/client/Paginate"
import type * as Target from "@community-api/client/Target"
import * as ParameterWords from "@community-api/core/ParameterWords"
import { Operation, Operations } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Cause, Clock, Effect, Either, Schema, Stream } from "effect"
import * as Answer from "./Answer.js"
import * as Budget from "./Budget.js"
import * as Issues from "./Issues.js"
import * as Limits from "./Limits.js"
import * as Tools from "./Tools.js"

/**
 * What every call of one server shares: how much of a list one answer carries, and where its client
 * keeps the user's limits.
 *
 * @since 0.1.0
 */
export interface Settings {
  /** The budget of one answer's list items, in characters of JSON. */
  readonly budget: number
  /** Where the client's limiters keep the limits, for `limits_get`; `memory` when absent. */
  readonly limiters?: Target.Limiters | undefined
}

/**
 * @since 0.1.0
 */
export const defaultSettings: Settings = { budget: Budget.defaultChars }

/**
 * The arguments of a tool call, as the protocol gives them.
 *
 * @since 0.1.0
 */
export type Arguments = Readonly<Record<string, unknown>>

/** Refuses parameters the operation does not take: a misspelt name should not be dropped silently. */
const decodeOptions = { errors: "all", onExcessProperty: "error" } as const

/** The parameters a tool's input schema names, for the issue of one it does not take. */
const parametersOf = (definition: Mcp.Tool): ReadonlyArray<string> =>
  Object.keys(definition.inputSchema.properties ?? {})

/**
 * Checks a tool's arguments against `schema`: the decoded parameters, or the tool error that names
 * each refused parameter once.
 */
const check = <A>(
  definition: Mcp.Tool,
  schema: Schema.Schema<A, any>,
  args: Arguments
): Either.Either<A, Mcp.CallToolResult> => {
  const parameters = parametersOf(definition)
  // A payload of no fields (`Schema.Struct({})`) is Effect's `{}`, which takes any object whatever
  // `onExcessProperty` says: the names are checked against the tool's own.
  const unknown = Object.keys(args).filter((name) => !parameters.includes(name))
  if (parameters.length === 0 && unknown.length > 0) {
    return Either.left(
      Answer.invalidInput(definition.name, unknown.map((name) => Issues.notAParameter(name, parameters)))
    )
  }
  return Either.mapLeft(
    Schema.decodeUnknownEither(schema)(args, decodeOptions),
    (error) =>
      Answer.invalidInput(
        definition.name,
        Issues.fromParseIssue(error.issue, {
          schema,
          parameters,
          input: args,
          words: ParameterWords.ofPayload(definition.inputSchema)
        })
      )
  )
}

const encode = (schema: Schema.Schema.AnyNoContext, value: unknown): Effect.Effect<unknown> =>
  Effect.orDie(Schema.encodeUnknown(schema)(value))

const encodeItems = (op: Operation.Pageable, items: ReadonlyArray<unknown>) =>
  encode(Schema.Array(op.item), items) as Effect.Effect<ReadonlyArray<unknown>>

/** Where a list starts and how large its pages are, from the parameters. */
const positionOf = (params: Record<string, unknown>) => ({
  start: typeof params.offset === "number" ? params.offset : 0,
  count: typeof params.count === "number" ? params.count : undefined
})

/**
 * The pages of a list from `offset` while their items' JSON is short of `budget`, cut to it. Pages
 * drop an item the page before gave (the list moved meanwhile), so each item's offset is kept as its
 * page gave it, and the answer goes on from the first item left out.
 */
const gather = (
  client: CommunityApiClient.Client,
  op: Operation.Pageable,
  params: Record<string, unknown>,
  budget: number
) =>
  Effect.gen(function*() {
    const { count: _count, offset: _offset, ...rest } = params
    const { count, start } = positionOf(params)
    const offsets = new Map<unknown, number>()
    const ends = new Map<number, number>()
    const fetch = (position: Paginate.Position) =>
      Effect.tap(client.page(op, rest as never, position), (page: { readonly items: ReadonlyArray<unknown> }) => {
        page.items.forEach((item, index) => offsets.set(item, position.offset + index))
        ends.set(position.offset, position.offset + page.items.length)
      })
    const gathered = yield* Paginate.pages(fetch, { offset: start, pageSize: count }).pipe(
      // Stops pulling pages once the budget is reached: the page fetched ahead ends with the stream.
      Stream.runFoldWhileEffect(
        { entries: [] as ReadonlyArray<Budget.Placed<unknown>>, chars: 0, total: 0, end: start },
        ({ chars }) => chars < budget,
        (state, page) =>
          Effect.map(encodeItems(op, page.items), (wire) => ({
            entries: [
              ...state.entries,
              ...wire.map((item, index) => ({ item, at: offsets.get(page.items[index]) ?? page.offset + index }))
            ],
            // The comma between the items before and these.
            chars: state.chars + Budget.charsOf(wire) + (state.entries.length > 0 && wire.length > 0 ? 1 : 0),
            total: page.total,
            end: ends.get(page.offset) ?? page.offset + page.items.length
          }))
      )
    )
    const { chars, end, entries, total } = gathered
    const cut = Budget.cutPlaced(entries, { chars: budget, end, total })
    const reached = cut.nextOffset !== undefined && (cut.items.length < entries.length || chars >= budget)
    return Answer.page(
      op.path,
      {
        items: cut.items,
        total,
        ...(cut.nextOffset === undefined ? {} : { next_offset: cut.nextOffset })
      },
      start,
      reached ? budget : undefined
    )
  })

/** One page of a list, as the wire carries it, cut to the budget. */
const onePage = (
  client: CommunityApiClient.Client,
  op: Operation.Pageable,
  params: Record<string, unknown>,
  budget: number
) =>
  Effect.gen(function*() {
    const value = yield* client.execute(op, params as never)
    const wire = (yield* encode(op.success, value)) as {
      readonly items: ReadonlyArray<unknown>
      readonly total: number
    }
    const { start } = positionOf(params)
    const cut = Budget.cut(wire.items, { chars: budget, offset: start, total: wire.total })
    return Answer.page(
      op.path,
      {
        items: cut.items,
        total: wire.total,
        ...(cut.nextOffset === undefined ? {} : { next_offset: cut.nextOffset })
      },
      start,
      cut.items.length < wire.items.length ? budget : undefined
    )
  })

/**
 * Failures of the call as tool errors, told with the time on the `Clock` (how long a limit makes the
 * agent wait); a defect as an internal error, told without its detail.
 */
const answered =
  (op: Pick<Operation.Any, "path" | "creation">) => (effect: Effect.Effect<Mcp.CallToolResult, unknown>) =>
    effect.pipe(
      Effect.catchAll((error) =>
        Effect.map(
          Clock.currentTimeMillis,
          (now) => Answer.failure(op.path, error, { now, creation: op.creation })
        )
      ),
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(Answer.failure(op.path, undefined))
      )
    ) as Effect.Effect<Mcp.CallToolResult>

/**
 * Runs the tool of a documented operation.
 *
 * @since 0.1.0
 */
export const operation = (
  client: CommunityApiClient.Client,
  tool: Tools.OperationTool,
  args: Arguments,
  settings: Settings = defaultSettings
): Effect.Effect<Mcp.CallToolResult> => {
  const { definition, op } = tool
  const { all, ...rest } = args
  const pageable = Operation.isPageable(op)
  const input = pageable ? rest : args
  if (pageable && all !== undefined && typeof all !== "boolean") {
    return Effect.succeed(
      Answer.invalidInput(definition.name, [{
        parameter: "all",
        message: ParameterWords.refused(ParameterWords.of("all", Tools.allProperty), all),
        allowed: [true, false]
      }])
    )
  }
  const decoded = check(definition, Operation.payloadOf(op), input)
  if (Either.isLeft(decoded)) return Effect.succeed(decoded.left)
  const params = decoded.right
  const run: Effect.Effect<Mcp.CallToolResult, unknown> = pageable
    ? all === true ? gather(client, op, params, settings.budget) : onePage(client, op, params, settings.budget)
    : Effect.flatMap(
      client.execute(op, params as never),
      (value) =>
        Effect.map(op.hasResponse ? encode(op.success, value) : Effect.void, (wire) => Answer.success(op.path, wire))
    )
  return answered(op)(run)
}

const callArguments = Schema.Struct({
  path: Schema.String,
  params: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

/**
 * Runs `call`: an operation whose parameters the API does not document, by path, with its parameters
 * as given.
 *
 * @since 0.1.0
 */
export const call = (client: CommunityApiClient.Client, args: Arguments): Effect.Effect<Mcp.CallToolResult> => {
  const decoded = check(Tools.callTool.definition, callArguments, args)
  if (Either.isLeft(decoded)) return Effect.succeed(decoded.left)
  const { params, path } = decoded.right
  const op = Operations.byPath.get(path)
  if (op === undefined) {
    const paths = Tools.callable.map((candidate) => candidate.path)
    return Effect.succeed(Answer.invalidInput(Tools.callName, [{
      parameter: "path",
      message: `no operation ${JSON.stringify(path)} is listed without documentation; one of ${paths.join(", ")}`,
      allowed: paths
    }]))
  }
  if (op.documented) {
    return Effect.succeed(Answer.invalidInput(Tools.callName, [{
      parameter: "path",
      message: `${path} is documented: use the tool ${Tools.nameOf(op)}`
    }]))
  }
  return answered(op)(
    Effect.map(
      client.call(op.path, params ?? {}),
      (value) => Answer.success(op.path, op.hasResponse ? value : undefined)
    )
  )
}

/**
 * Runs a tool.
 *
 * @since 0.1.0
 */
export const run = (
  client: CommunityApiClient.Client,
  tool: Tools.Tool,
  args: Arguments,
  settings: Settings = defaultSettings
): Effect.Effect<Mcp.CallToolResult> =>
  tool._tag === "Operation"
    ? operation(client, tool, args, settings)
    : tool._tag === "Call"
    ? call(client, args)
    : Limits.run(client, args, settings.limiters ?? "memory")
