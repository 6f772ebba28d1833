/**
 * Every item of a list operation as a `Stream`: pages of 500 (the largest the API gives),
 * offsets advanced by what each page held, stopping at `total` or at an empty page.
 *
 * Newest records come first, so a record created during paging pushes older ones one place
 * down and the next page would repeat them; items already seen are dropped, by `id` (or by the
 * community pair for communities). Only the keys of the last two pages are kept, so memory does not
 * grow with the length of the list: repeats are dropped as long as fewer than two pages of records
 * arrive between two requests.
 *
 * The next page is asked for while the caller consumes the current one, one page ahead and no
 * further: at most the page being consumed and the next one are held. The requests still go one after
 * the other, each through the client's pacing; the last page asks for nothing more, so a list takes
 * exactly as many requests as it has pages, and a stream that ends early (an error, an interruption, a
 * `Stream.take`) interrupts the page it was fetching ahead.
 *
 * @since 0.1.0
 */
import { Page } from "@community-api/schema"
import { Chunk, Effect, Fiber, Option, Predicate, Stream } from "effect"

/**
 * Where a page starts and how long it is.
 *
 * @since 0.1.0
 */
export interface Position {
  readonly offset: number
  readonly count: number
}

/**
 * The identity of an item: its `id`, else its community pair, else its JSON.
 *
 * @since 0.1.0
 */
export const keyOf = (item: unknown): string => {
  if (Predicate.hasProperty(item, "id") && typeof item.id === "string") return `id:${item.id}`
  if (Predicate.hasProperty(item, "group_id") && Predicate.hasProperty(item, "channel")) {
    return `community:${String(item.channel)}:${String(item.group_id)}`
  }
  return `json:${JSON.stringify(item)}`
}

/**
 * Options of {@link stream}.
 *
 * @since 0.1.0
 */
export interface Options {
  /** Records per page; default (and at most) 500. */
  readonly pageSize?: number | undefined
  /** The identity of an item, to drop repeats; default {@link keyOf}. */
  readonly key?: ((item: unknown) => string) | undefined
}

/**
 * Streams every item that `fetch` returns page by page.
 *
 * @since 0.1.0
 */
export const stream = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<Page.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<A, E, R> => {
  const count = Math.min(options.pageSize ?? Page.maxCount, Page.maxCount)
  const key = options.key ?? keyOf
  return Stream.unwrapScoped(Effect.gen(function*() {
    const scope = yield* Effect.scope
    // The page at `offset`, fetched in the stream's scope: it runs while the caller consumes the page
    // before it, and ends with the stream.
    const ahead = (offset: number) => Effect.forkIn(fetch({ offset, count }), scope)
    // The keys of the page before the last, and of the last.
    let older = new Set<string>()
    let last = new Set<string>()
    const first = yield* ahead(0)
    return Stream.paginateChunkEffect(
      { offset: 0, fiber: first },
      ({ fiber, offset }) =>
        Effect.flatMap(Fiber.join(fiber), (page) => {
          const current = new Set<string>()
          const fresh = page.items.filter((item) => {
            const k = key(item)
            const repeated = last.has(k) || older.has(k) || current.has(k)
            current.add(k)
            return !repeated
          })
          older = last
          last = current
          const next = offset + page.items.length
          const more = page.items.length > 0 && next < page.total
          const chunk = Chunk.unsafeFromArray(fresh)
          return more
            ? Effect.map(ahead(next), (fiber) => [chunk, Option.some({ offset: next, fiber })] as const)
            : Effect.succeed([chunk, Option.none()] as const)
        })
    )
  }))
}
