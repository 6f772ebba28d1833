/**
 * What each tool does when called: its arguments checked against the operation's payload schema (a
 * refusal names the parameter, and nothing is sent), the call made through the client, and the
 * answer or the error put in the form of {@link Answer}. A tool never fails as a protocol error: every
 * failure is a tool error the assistant can read.
 *
 * @since 0.1.0
 */
import type * as CommunityApiClient from "@community-api/client/CommunityApiClient"
import * as Paginate from "@community-api/client/Paginate"
import { Operation, Operations } from "@community-api/schema"
import type * as Mcp from "@modelcontextprotocol/sdk/types.js"
import { Cause, Chunk, Effect, Either, ParseResult, Schema, Stream } from "effect"
import * as Answer from "./Answer.js"
import * as Tools from "./Tools.js"

/**
 * The arguments of a tool call, as the protocol gives them.
 *
 * @since 0.1.0
 */
export type Arguments = Readonly<Record<string, unknown>>

/**
 * The refusals of a parse issue, one per parameter.
 *
 * @since 0.1.0
 */
export const issuesOf = (issue: ParseResult.ParseIssue): ReadonlyArray<Answer.Issue> =>
  ParseResult.ArrayFormatter.formatIssueSync(issue).map((entry) => ({
    parameter: entry.path.map(String).join("."),
    message: entry.message
  }))

/** Refuses parameters the operation does not take: a misspelt name should not be dropped silently. */
const decodeOptions = { errors: "all", onExcessProperty: "error" } as const

const encode = (schema: Schema.Schema.AnyNoContext, value: unknown): Effect.Effect<unknown> =>
  Effect.orDie(Schema.encodeUnknown(schema)(value))

/**
 * Every page of a list from `offset`, up to {@link Tools.allCap} items; `total` is the one the server
 * gave with the last page taken.
 */
const gather = (client: CommunityApiClient.Client, op: Operation.Pageable, params: Record<string, unknown>) =>
  Effect.gen(function*() {
    const { count, offset, ...rest } = params
    const start = typeof offset === "number" ? offset : 0
    const gathered = yield* Paginate.pages(
      (position) => client.page(op, rest as never, position),
      { offset: start, pageSize: typeof count === "number" ? count : undefined }
    ).pipe(
      // Nothing is pulled past the page that reaches the cap: the page fetched ahead ends with the stream.
      Stream.runFoldWhile(
        { items: Chunk.empty<unknown>(), total: 0 },
        ({ items }) => Chunk.size(items) < Tools.allCap,
        ({ items }, page) => ({ items: Chunk.appendAll(items, Chunk.unsafeFromArray(page.items)), total: page.total })
      )
    )
    const items = Chunk.take(gathered.items, Tools.allCap)
    const { total } = gathered
    const next = start + items.length
    const wire = yield* encode(Schema.Array(op.item), Chunk.toReadonlyArray(items)) as Effect.Effect<
      ReadonlyArray<unknown>
    >
    return Answer.page(op.path, {
      items: wire,
      total,
      ...(items.length >= Tools.allCap && next < total ? { next_offset: next } : {})
    }, start)
  })

/** One page of a list, as the wire carries it. */
const onePage = (client: CommunityApiClient.Client, op: Operation.Pageable, params: Record<string, unknown>) =>
  Effect.gen(function*() {
    const value = yield* client.execute(op, params as never)
    const wire = (yield* encode(op.success, value)) as {
      readonly items: ReadonlyArray<unknown>
      readonly total: number
    }
    const start = typeof params.offset === "number" ? params.offset : 0
    const next = start + wire.items.length
    return Answer.page(op.path, {
      items: wire.items,
      total: wire.total,
      ...(wire.items.length > 0 && next < wire.total ? { next_offset: next } : {})
    }, start)
  })

/** Failures of the call as tool errors; a defect as an internal error, told without its detail. */
const answered = (operation: string) => (effect: Effect.Effect<Mcp.CallToolResult, unknown>) =>
  effect.pipe(
    Effect.catchAll((error) => Effect.succeed(Answer.failure(operation, error))),
    Effect.catchAllCause((cause) =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.succeed(Answer.failure(operation, undefined))
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
  args: Arguments
): Effect.Effect<Mcp.CallToolResult> => {
  const { op } = tool
  const name = tool.definition.name
  const { all, ...rest } = args
  const pageable = Operation.isPageable(op)
  const input = pageable ? rest : args
  if (pageable && all !== undefined && typeof all !== "boolean") {
    return Effect.succeed(Answer.invalidInput(name, [{ parameter: "all", message: "must be true or false" }]))
  }
  const decoded = Schema.decodeUnknownEither(Operation.payloadOf(op))(input, decodeOptions)
  if (Either.isLeft(decoded)) return Effect.succeed(Answer.invalidInput(name, issuesOf(decoded.left.issue)))
  const params = decoded.right
  const run: Effect.Effect<Mcp.CallToolResult, unknown> = pageable
    ? all === true ? gather(client, op, params) : onePage(client, op, params)
    : Effect.flatMap(
      client.execute(op, params as never),
      (value) =>
        Effect.map(op.hasResponse ? encode(op.success, value) : Effect.void, (wire) => Answer.success(op.path, wire))
    )
  return answered(op.path)(run)
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
  const decoded = Schema.decodeUnknownEither(callArguments)(args, decodeOptions)
  if (Either.isLeft(decoded)) return Effect.succeed(Answer.invalidInput(Tools.callName, issuesOf(decoded.left.issue)))
  const { params, path } = decoded.right
  const op = Operations.byPath.get(path)
  if (op === undefined || op.documented) {
    const message = op === undefined
      ? `no operation ${JSON.stringify(path)} is listed without documentation; one of ${
        Tools.callable.map((candidate) => candidate.path).join(", ")
      }`
      : `${path} is documented: use the tool ${Tools.nameOf(op)}`
    return Effect.succeed(Answer.invalidInput(Tools.callName, [{ parameter: "path", message }]))
  }
  return answered(op.path)(
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
  args: Arguments
): Effect.Effect<Mcp.CallToolResult> => tool._tag === "Operation" ? operation(client, tool, args) : call(client, args)
