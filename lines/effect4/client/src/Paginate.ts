/**
 * Every item of a list operation on the Effect 4 line, page after page: the pages after the current
 * one are asked for as soon as it is handed over (`PageAhead` of `@community-api/core`), and no page
 * past the last; records seen on the page before (a record added at the front while paging
 * moves the others back) are not given twice.
 *
 * @since 0.1.0
 */
import * as PageAhead from "@community-api/core/PageAhead"
import { Page as ListPage } from "@community-api/effect4-schema"
import { Effect, Fiber, Option, Predicate, Stream } from "effect"

/**
 * Where a page starts and how many records it holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly offset: number
  readonly count: number
}

/**
 * A page as streamed: its new records, the total, and where it started.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A> extends ListPage.Page<A> {
  readonly offset: number
}

/**
 * What tells two records apart: the id, a community's channel and number, or the whole record.
 *
 * @since 0.1.0
 * @category utils
 */
export const keyOf = (item: unknown): string => {
  if (Predicate.hasProperty(item, "id") && typeof item.id === "string") return `id:${item.id}`
  if (Predicate.hasProperty(item, "group_id") && Predicate.hasProperty(item, "channel")) {
    return `community:${String(item.channel)}:${String(item.group_id)}`
  }
  return `json:${JSON.stringify(item)}`
}

/**
 * Options of a stream of pages.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** Where to start; 0 by default. */
  readonly offset?: number | undefined
  /** Records a page; the most the API gives (500) by default and at most. */
  readonly pageSize?: number | undefined
  /** What tells two records apart; {@link keyOf} by default. */
  readonly key?: ((item: unknown) => string) | undefined
}

/**
 * The pages of a list from `options.offset` on, each fetched while the ones before it are consumed.
 *
 * @since 0.1.0
 * @category constructors
 */
export const pages = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<Page<A>, E, R> => {
  const count = Math.min(options.pageSize ?? ListPage.maxCount, ListPage.maxCount)
  const start = options.offset ?? 0
  const key = options.key ?? keyOf
  return Stream.unwrap(Effect.gen(function*() {
    const scope = yield* Effect.scope
    // The page at `offset`, fetched in the stream's scope: it runs while the caller consumes the page
    // before it, and ends with the stream. It starts at once, on this fiber until its first wait: a fork
    // left to the scheduler can start after the `TestClock` has already run past the caller's wait over
    // the page handed over (the request then goes out only once that page is consumed).
    const ahead = (offset: number): Effect.Effect<Fetching<A, E>, never, R> =>
      Effect.map(
        Effect.forkIn(fetch({ offset, count }), scope, { startImmediately: true }),
        (fiber) => ({ offset, fiber })
      )
    // The pages to have in flight, at `offsets`: those already asked for there are kept, any other
    // (asked where a page that came back short said the list would go on) is given up.
    const keep = (offsets: ReadonlyArray<number>, fetching: ReadonlyArray<Fetching<A, E>>) =>
      Effect.andThen(
        Effect.forEach(
          fetching.filter((f) => !offsets.includes(f.offset)),
          (f) => Fiber.interrupt(f.fiber),
          { discard: true }
        ),
        Effect.forEach(offsets, (offset) => {
          const asked = fetching.find((f) => f.offset === offset)
          return asked === undefined ? ahead(offset) : Effect.succeed(asked)
        })
      )
    // The keys of the page before the last, and of the last.
    let older = new Set<string>()
    let last = new Set<string>()
    const first = yield* ahead(start)
    return Stream.paginate(
      [first] as ReadonlyArray<Fetching<A, E>>,
      (fetching) => {
        const current = fetching[0]!
        return Effect.flatMap(Fiber.join(current.fiber), (page) => {
          const seen = new Set<string>()
          const fresh = page.items.filter((item) => {
            const k = key(item)
            const repeated = last.has(k) || older.has(k) || seen.has(k)
            seen.add(k)
            return !repeated
          })
          older = last
          last = seen
          const streamed: Page<A> = { items: fresh, total: page.total, offset: current.offset }
          const offsets = PageAhead.plan({ offset: current.offset, items: page.items.length, total: page.total, count })
          return Effect.map(
            keep(offsets, fetching.slice(1)),
            (next) => [[streamed], next.length === 0 ? Option.none() : Option.some(next)] as const
          )
        })
      }
    )
  }))
}

/** A page asked for and its fiber. */
interface Fetching<A, E> {
  readonly offset: number
  readonly fiber: Fiber.Fiber<ListPage.Page<A>, E>
}

/**
 * Every record of a list from `options.offset` on.
 *
 * @since 0.1.0
 * @category constructors
 */
export const stream = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<A, E, R> => Stream.flattenIterable(Stream.map(pages(fetch, options), (page) => page.items))
