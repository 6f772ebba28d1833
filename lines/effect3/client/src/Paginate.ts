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
 * The two pages after the one handed over are asked for while the caller consumes it, and no
 * more: at most the page being consumed and the two after it are held. With several requests in
 * flight, each through the client's pacing, a stream keeps to the user's rate even when a page takes
 * the server tens of milliseconds (one request at a time could not). A page after the next is asked
 * for at the offset the pages before it end at when full, and only when the last `total` says it
 * exists (`PageAhead` of `@community-api/core`); should a page come back short the pages asked past
 * it are given up and the right ones asked for. The last page asks for nothing more, so a list that does not change while it
 * is read takes exactly as many requests as it has pages, and a stream that ends early (an error, an
 * interruption, a `Stream.take`) interrupts the pages it was fetching ahead.
 *
 * @since 0.1.0
 */
import * as PageAhead from "@community-api/core/PageAhead"
import type { Page, Position, StreamOptions as Options } from "@community-api/core/PageAhead"
import { Page as ListPage } from "@community-api/schema"
import { Chunk, Effect, Fiber, Option, Stream } from "effect"

export type {
  /**
   * Where a page starts and how long it is.
   *
   * @since 0.1.0
   * @category models
   */
  Position
} from "@community-api/core/PageAhead"

export type {
  /**
   * A page as {@link pages} streams it: the items the server gave at `offset` that were not seen on
   * the pages before (so fewer than asked for when records shifted during paging), and `total` as the
   * server counted it for this request, every matching record from offset 0, not only those from the
   * start offset. A caller that wants the records from its start offset counts `total - start`.
   *
   * @since 0.1.0
   * @category models
   */
  Page
} from "@community-api/core/PageAhead"

export {
  /**
   * The identity of an item: its `id`, else its community pair, else its JSON.
   *
   * @since 0.1.0
   * @category utils
   */
  keyOf
} from "@community-api/core/PageAhead"

export type {
  /**
   * Options of {@link pages} and {@link stream}.
   *
   * @since 0.1.0
   * @category options
   */
  StreamOptions as Options
} from "@community-api/core/PageAhead"

/**
 * Streams every page that `fetch` returns from `offset`, one page per element, repeats dropped. The
 * first page is always streamed, even empty: it carries `total` for an empty list or an offset past
 * the end. The stream ends after a page that was empty or reached `total`.
 *
 * @example
 * ```ts
 * import { Paginate } from "@community-api/client"
 * import { Chunk, Effect, Stream } from "effect"
 * import { deepStrictEqual } from "node:assert"
 *
 * // 250 records served 100 at a time: the pages, with the total the server counted.
 * const records = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }))
 * const fetch = ({ count, offset }: Paginate.Position) =>
 *   Effect.succeed({ items: records.slice(offset, offset + count), total: records.length })
 *
 * const pages = await Effect.runPromise(Stream.runCollect(Paginate.pages(fetch, { pageSize: 100 })))
 * deepStrictEqual(Chunk.toReadonlyArray(pages).map((page) => page.items.length), [100, 100, 50])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const pages = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<Page<A>, E, R> =>
  Stream.unwrapScoped(Effect.gen(function*() {
    const scope = yield* Effect.scope
    // What to ask for, hand over and give up: the core's plan of the stream, with the fibers in
    // flight (`PageAhead.run`).
    const run = PageAhead.run<Fiber.RuntimeFiber<ListPage.Page<A>, E>>({ ...options, maxCount: ListPage.maxCount })
    // The pages at `offsets`, fetched in the stream's scope: each runs while the caller consumes the
    // pages before it, and ends with the stream.
    const ask = (offsets: ReadonlyArray<number>) =>
      Effect.forEach(offsets, (offset) =>
        Effect.map(Effect.forkIn(fetch({ offset, count: run.count }), scope), (fiber) =>
          run.started(offset, fiber)), { discard: true })
    yield* ask([run.first])
    return Stream.paginateEffect(run.first, (offset) =>
      Effect.flatMap(Fiber.join(run.take(offset)), (page) => {
        const step = run.answered(offset, page)
        return Effect.as(
          Effect.zipRight(Effect.forEach(step.giveUp, Fiber.interruptFork, { discard: true }), ask(step.ask)),
          [step.page, Option.fromNullable(step.next)] as const
        )
      }))
  }))

/**
 * Streams every item that `fetch` returns page by page from `offset`: the items of {@link pages},
 * one chunk per page.
 *
 * @example
 * ```ts
 * import { Paginate } from "@community-api/client"
 * import { Chunk, Effect, Stream } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A list of 1,200 records, served a page at a time as a list operation does.
 * const records = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1 }))
 * const fetch = ({ count, offset }: Paginate.Position) =>
 *   Effect.succeed({ items: records.slice(offset, offset + count), total: records.length })
 *
 * const all = await Effect.runPromise(Stream.runCollect(Paginate.stream(fetch)))
 * strictEqual(Chunk.size(all), 1200)
 * strictEqual(Chunk.unsafeLast(all).id, 1200)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const stream = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<A, E, R> => Stream.mapConcatChunk(pages(fetch, options), (page) => Chunk.unsafeFromArray(page.items))
