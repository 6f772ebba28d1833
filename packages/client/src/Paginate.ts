/**
 * The pages of a list operation, and every item of it, as a `Stream`: pages of 500 (the largest the
 * API gives) from any offset, offsets advanced by what each page held, stopping at `total` or at an
 * empty page. {@link pages} is the one implementation; {@link stream} is its pages flattened.
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
import { Page as ListPage } from "@community-api/schema"
import { Chunk, Effect, Fiber, Option, Predicate, Stream } from "effect"

/**
 * Where a page starts and how long it is.
 *
 * @since 0.1.0
 * @category models
 */
export interface Position {
  readonly offset: number
  readonly count: number
}

/**
 * A page as {@link pages} streams it: the items the server gave at `offset` that were not seen on
 * the pages before (so fewer than asked for when records shifted during paging), and `total` as the
 * server counted it for this request, every matching record from offset 0, not only those from the
 * start offset. A caller that wants the records from its start offset counts `total - start`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A> extends ListPage.Page<A> {
  /** Where the page was asked for: the start offset plus every record the pages before held, repeats included. */
  readonly offset: number
}

/**
 * The identity of an item: its `id`, else its community pair, else its JSON.
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
 * Options of {@link pages} and {@link stream}.
 *
 * @since 0.1.0
 * @category options
 */
export interface Options {
  /** The offset of the first page; default 0. */
  readonly offset?: number | undefined
  /** Records per page; default (and at most) 500. */
  readonly pageSize?: number | undefined
  /** The identity of an item, to drop repeats; default {@link keyOf}. */
  readonly key?: ((item: unknown) => string) | undefined
}

/**
 * Streams every page that `fetch` returns from `offset`, one page per element, repeats dropped. The
 * first page is always streamed, even empty: it carries `total` for an empty list or an offset past
 * the end. The stream ends after a page that was empty or reached `total`.
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
  return Stream.unwrapScoped(Effect.gen(function*() {
    const scope = yield* Effect.scope
    // The page at `offset`, fetched in the stream's scope: it runs while the caller consumes the page
    // before it, and ends with the stream.
    const ahead = (offset: number) => Effect.forkIn(fetch({ offset, count }), scope)
    // The keys of the page before the last, and of the last.
    let older = new Set<string>()
    let last = new Set<string>()
    const first = yield* ahead(start)
    return Stream.paginateEffect(
      { offset: start, fiber: first },
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
          const streamed: Page<A> = { items: fresh, total: page.total, offset }
          return more
            ? Effect.map(ahead(next), (fiber) => [streamed, Option.some({ offset: next, fiber })] as const)
            : Effect.succeed([streamed, Option.none()] as const)
        })
    )
  }))
}

/**
 * Streams every item that `fetch` returns page by page from `offset`: the items of {@link pages},
 * one chunk per page.
 *
 * @since 0.1.0
 * @category constructors
 */
export const stream = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<A, E, R> => Stream.mapConcatChunk(pages(fetch, options), (page) => Chunk.unsafeFromArray(page.items))
