/**
 * Prints one example per operation for the OpenAPI document of `@community-api/schema`: a request
 * built from the demo data and the reference server's answer to it, as JSON keyed by operation path.
 *
 * It lives here because it needs the server and its demo data, which the schema package may not
 * import (the server depends on it). `lines/effect3/schema/scripts/openapi.ts` runs it in a child process
 * and keeps its output in `lines/effect3/schema/scripts/examples.json`.
 *
 * Each request runs on the demo data as loaded (the server is reset before each one), with the
 * owner's token, at a fixed instant of the `TestClock`, so that the output is the same on every run.
 */
import type { Operation } from "@community-api/schema"
import { Channel, Ids, Operations, Page, Variable } from "@community-api/schema"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Option, type Schema, SchemaAST, TestClock, TestContext } from "effect"
import { DemoFixture, ReferenceServer } from "../src/index.js"

/** The instant the examples are taken at (it shows in what a creation returns). */
const instant = Date.UTC(2025, 0, 15, 9, 0, 0)

const community = DemoFixture.mainCommunity

/** The demo value of a parameter, by the contract's schema of the parameter. */
const bySchema: ReadonlyArray<readonly [Schema.Schema.Any, unknown]> = [
  [Ids.GroupId, community.group_id],
  [Channel.Channel, community.channel],
  [Ids.BotId, DemoFixture.enableableBotId],
  [Ids.ListId, DemoFixture.listId],
  [Ids.Uid, DemoFixture.subscriberUid],
  [Ids.VariableId, DemoFixture.variableId],
  [Ids.CommunityVariableId, DemoFixture.communityVariableId],
  [Ids.MailingId, DemoFixture.mailingId],
  [Page.Count, 2],
  [Variable.VariableTitle, "Любимый десерт"],
  [Variable.VariableName, "favorite_dessert"]
]

/** Free-text parameters the schemas above do not name, by parameter name. */
const byName: { readonly [name: string]: unknown } = {
  name: "Любители десертов",
  title: "Любимый десерт",
  value: "чизкейк"
}

/** Optional parameters sent anyway: the community (so lists show one), and a page of two items. */
const sentWhenOptional: ReadonlyArray<Schema.Schema.Any> = [Ids.GroupId, Channel.Channel, Page.Count]

const identifierOf = (ast: SchemaAST.AST) => Option.getOrUndefined(SchemaAST.getIdentifierAnnotation(ast))

/** The schema of `bySchema` a parameter's type is (the same AST, or one with the same identifier). */
const schemaOf = (ast: SchemaAST.AST): Schema.Schema.Any | undefined => {
  // `Schema.optional(X)` declares `X | undefined`.
  const defined = SchemaAST.isUnion(ast) && ast.types.some(SchemaAST.isUndefinedKeyword)
    ? ast.types.filter((t) => !SchemaAST.isUndefinedKeyword(t))
    : [ast]
  const type = defined.length === 1 ? defined[0]! : ast
  const identifier = identifierOf(type)
  return bySchema.find(([schema]) =>
    schema.ast === type || (identifier !== undefined && identifierOf(schema.ast) === identifier)
  )?.[0]
}

/** The JSON body of the example request of an operation. */
const requestOf = (op: Operation.Any): Record<string, unknown> => {
  let fields: ReadonlyArray<SchemaAST.PropertySignature> = []
  try {
    fields = SchemaAST.getPropertySignatures(op.payload.ast)
  } catch {
    // not a struct (the unknown payload of E17): no parameters to fill
  }
  const params: Record<string, unknown> = {}
  for (const field of fields) {
    const name = String(field.name)
    const schema = schemaOf(field.type)
    if (field.isOptional && (schema === undefined || !sentWhenOptional.includes(schema))) continue
    const value = schema !== undefined ? bySchema.find(([s]) => s === schema)![1] : byName[name]
    if (value === undefined) throw new Error(`${op.path}: no demo value for the parameter ${name}`)
    params[name] = value
  }
  return params
}

/**
 * An example must show the operation at work: a success, or error 6 from an E17 operation nothing is
 * assumed about (the server does not model it).
 */
const check = (op: Operation.Any, body: unknown) => {
  const answer = body as { readonly status?: unknown; readonly error_code?: unknown }
  const notModelled = !op.documented && op.assumption === undefined && answer.error_code === 6
  if (answer.status !== "ok" && !notModelled) {
    throw new Error(`${op.path}: the example request was refused: ${JSON.stringify(body)}`)
  }
}

const capture = Effect.gen(function*() {
  yield* TestClock.setTime(instant)
  const server = yield* ReferenceServer.ReferenceServer
  const client = yield* HttpClient.HttpClient
  const examples: Record<string, { readonly request: unknown; readonly response: unknown }> = {}
  for (const op of Operations.all) {
    yield* server.reset
    const request = requestOf(op)
    const response = yield* client.execute(
      HttpClientRequest.post(`${ReferenceServer.inProcessBaseUrl}/${op.path}`).pipe(
        HttpClientRequest.bearerToken(DemoFixture.tokens.owner),
        HttpClientRequest.bodyUnsafeJson(request)
      )
    )
    const body = yield* response.json
    check(op, body)
    examples[op.path] = { request, response: body }
  }
  return examples
}).pipe(
  Effect.scoped,
  Effect.provide(ReferenceServer.layerTest()),
  Effect.provide(TestContext.TestContext)
)

Effect.runPromise(capture).then(
  (examples) => process.stdout.write(`${JSON.stringify(examples, null, 2)}\n`),
  (error) => {
    console.error(error)
    process.exitCode = 1
  }
)
