/**
 * The sandbox's clock route: `GET /_sandbox/clock` tells the server's time and whether it is manual;
 * `POST /_sandbox/clock` turns a manual clock, `{"advance": <ms>}` or `{"set": <instant>}`, and answers
 * the new time. A body that does not decode gets one line (error 7) and the time does not move; a
 * server on the real clock answers error 6, since nothing can move the real time.
 *
 * The clock only moves forward: a `set` to an earlier instant is refused. Going back would let a
 * creation window, a cached token or an object's date lie in the future of the server's own time, a
 * world no real server can be in; a test that needs an earlier time starts a sandbox there
 * (`--clock-start`).
 *
 * @internal
 */
import type * as CoreClock from "@community-api/core/Clock"
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either } from "effect"
import * as Answers from "./controlAnswers.js"
import type { Engine } from "./engine.js"
import * as Params from "./params.js"

/**
 * What the clock routes answer: the time as an ISO instant and in unix milliseconds, whether
 * `POST /_sandbox/clock` may move it, and whether the per-second request rate counts on this clock
 * (`same`) or on one of its own (`separate`: the sandbox's real time under `--clock manual`).
 */
export interface ClockState {
  readonly time: string
  readonly epochMillis: number
  readonly manual: boolean
  readonly rateClock: "same" | "separate"
}

/** A turn of the clock asked for by a body. */
export type Turn =
  | { readonly _tag: "Advance"; readonly millis: number }
  | { readonly _tag: "Set"; readonly epochMillis: number }

/** The last instant a `Date` can show: the clock goes no further, so its time always prints. */
const lastInstant = 8_640_000_000_000_000

const isoInstant = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i

/** What a `set` (and the sandbox's `--clock-start`) takes, as the one line of its refusal says. */
export const instantExpected = "an ISO instant with its offset (2026-01-01T00:00:00Z) or unix milliseconds"

/** A whole number of unix milliseconds up to {@link lastInstant}. */
const isMillis = (value: number) => Number.isSafeInteger(value) && value >= 0 && value <= lastInstant

/**
 * An instant given as an ISO date-time with its offset (`Z` or `+03:00`: a time without one would be
 * read in the machine's own zone), or as unix milliseconds, a number or its digits; `undefined` when
 * it is neither, or names a day the calendar does not have (V8 reads `02-30` as March 2nd).
 */
export const parseInstant = (value: unknown): number | undefined => {
  if (typeof value === "number") return isMillis(value) ? value : undefined
  if (typeof value !== "string") return undefined
  if (/^\d+$/.test(value)) return parseInstant(Number(value))
  const match = isoInstant.exec(value)
  if (match === null) return undefined
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return undefined
  const millis = Date.parse(value)
  return Number.isNaN(millis) || !isMillis(millis) ? undefined : millis
}

/** A value as the refusal quotes it: its JSON, cut short, a text shaped like a token masked. */
const shown = (value: unknown): string => {
  if (typeof value === "string") return Answers.shown(value)
  // `JSON.stringify` gives `undefined` for what JSON cannot hold.
  const text = (JSON.stringify(value) as string | undefined) ?? String(value)
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}

const usage = `send {"advance": <milliseconds>} or {"set": "<ISO instant or unix milliseconds>"}`

/** The turn a body asks for, or the one line that says what is wrong with it. */
export const decodeTurn = (params: Record<string, unknown>): Either.Either<Turn, string> => {
  const keys = Object.keys(params)
  const unexpected = keys.find((key) => key !== "advance" && key !== "set")
  if (unexpected !== undefined) return Either.left(`clock: ${Answers.shown(unexpected)} is unexpected; ${usage}`)
  if (keys.length !== 1) {
    return Either.left(`clock: ${keys.length === 0 ? "nothing asked" : "advance or set, not both"}; ${usage}`)
  }
  if ("advance" in params) {
    const advance = params["advance"]
    const millis = typeof advance === "string" && /^\d+$/.test(advance) ? Number(advance) : advance
    return typeof millis === "number" && isMillis(millis)
      ? Either.right({ _tag: "Advance" as const, millis })
      : Either.left(`clock: advance: expected a whole number of milliseconds, 0 or more, actual ${shown(advance)}`)
  }
  const epochMillis = parseInstant(params["set"])
  return epochMillis === undefined
    ? Either.left(`clock: set: expected ${instantExpected}, actual ${shown(params["set"])}`)
    : Either.right({ _tag: "Set" as const, epochMillis })
}

/** Turns `clock` as `turn` asks, or tells why it does not move (backwards, or past the last instant). */
export const apply = (clock: CoreClock.ManualClock, turn: Turn): Either.Either<number, string> => {
  const now = clock.now()
  const target = turn._tag === "Advance" ? now + turn.millis : turn.epochMillis
  if (target > lastInstant) return Either.left(`clock: advance: the time would pass ${Answers.iso(lastInstant)}`)
  if (target < now) {
    return Either.left(
      `clock: set: ${Answers.iso(target)} is before the sandbox's time, ${
        Answers.iso(now)
      }; the clock only moves forward`
    )
  }
  clock.setTime(target)
  return Either.right(clock.now())
}

/** The text of the error 6 of `POST /_sandbox/clock` on the real clock. */
export const realClock =
  "clock: this sandbox runs on the real time, which nothing moves; start it with --clock manual to turn its clock"

const stateOf = (engine: Engine, epochMillis: number): ClockState => ({
  time: Answers.iso(epochMillis),
  epochMillis,
  manual: engine.manualClock !== undefined,
  rateClock: engine.rateOnOwnClock ? "separate" : "same"
})

const answer = (engine: Engine, epochMillis: number) => Answers.ok(stateOf(engine, epochMillis))

/** `GET /_sandbox/clock`: the server's time. */
export const get = (engine: Engine) => Effect.map(engine.now(), (now) => answer(engine, now))

/** `POST /_sandbox/clock`: turns a manual clock; nothing moves unless the whole body decodes. */
export const post = (engine: Engine) =>
  Effect.gen(function*() {
    const clock = engine.manualClock
    if (clock === undefined) return Answers.refused(6, realClock)
    const read = yield* Params.read(yield* HttpServerRequest.HttpServerRequest)
    if (read.bodyError !== undefined) return Answers.refused(7, `clock: ${read.bodyError}`)
    return Either.match(Either.flatMap(decodeTurn(read.params), (turn) => apply(clock, turn)), {
      onLeft: (text) => Answers.refused(7, text),
      onRight: (now) => answer(engine, now)
    })
  })
