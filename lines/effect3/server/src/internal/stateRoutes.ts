/**
 * The sandbox's snapshot routes: `GET /_sandbox/state` answers the world as JSON in the fixture's
 * format (what `--fixture` reads), tokens included: they are the fixture's own credentials, and only
 * the holder of the control token reaches this route. `PUT /_sandbox/state` loads one, as
 * `ReferenceServer` `load` does: the world, and what `/_sandbox/reset` goes back to, become it, with
 * counters, caches, faults and the journal afresh. A body that is not JSON or does not decode as a
 * fixture is refused whole with one line naming the first bad path (error 7), and the world is
 * unchanged.
 *
 * @internal
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either } from "effect"
import * as Fixture from "../Fixture.js"
import * as Body from "./body.js"
import * as Answers from "./controlAnswers.js"
import type { Engine } from "./engine.js"
import * as Issues from "./issues.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const nothingSent = "state: send the world as JSON, in the fixture's format (GET /_sandbox/state answers one)"

/** The JSON of a body, or the line that says why it is none. */
const parsed = (bytes: Uint8Array | "tooLarge"): Either.Either<unknown, string> => {
  if (bytes === "tooLarge") return Either.left(`state: the body is larger than ${Body.maxBodyBytes} bytes`)
  if (bytes.length === 0) return Either.left(nothingSent)
  return Either.try({
    try: () => JSON.parse(utf8.decode(bytes)) as unknown,
    // The parser's own words ("Unexpected end of JSON input"), without `SyntaxError:`.
    catch: (cause) => `state: not JSON: ${cause instanceof Error ? cause.message : String(cause)}`
  })
}

/** Refuses a query: the routes take none. */
const noQuery = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const query = Answers.queryOf("state", request)
  return Either.isLeft(query) ? query.left : Answers.unexpected("state", query.right, [])
}

/** `GET /_sandbox/state`. */
export const get = (engine: Engine) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const wrong = noQuery(request)
    return wrong === undefined
      ? Effect.map(engine.snapshot(), (fixture) => Answers.ok(Fixture.encode(fixture)))
      : Effect.succeed(Answers.refused(7, wrong))
  })

/** `PUT /_sandbox/state`: nothing changes unless the whole body decodes. */
export const put = (engine: Engine) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const wrong = noQuery(request)
    if (wrong !== undefined) return Answers.refused(7, wrong)
    const body = yield* Effect.either(Body.collect(request, undefined))
    const json = Either.flatMap(Either.mapLeft(body, (text) => `state: ${text}`), parsed)
    if (Either.isLeft(json)) return Answers.refused(7, json.left)
    return yield* Fixture.decode(json.right, "state").pipe(
      Effect.flatMap((fixture) => Effect.as(engine.load(fixture), Answers.ok())),
      Effect.catchAll((error) =>
        Effect.succeed(Answers.refused(7, `state: ${Issues.format({ path: error.field, message: error.reason })}`))
      )
    )
  })
