/**
 * Every item of a list operation on the Effect 4 line, page after page: the pages after the current
 * one are asked for as soon as it is handed over (`PageAhead` of `@community-api/core`), and no page
 * past the last; records seen on the page before (a record added at the front while paging
 * moves the others back) are not given twice.
 *
 * @since 0.1.0
 */
import * as PageAhead from "@community-api/core/PageAhead"
import type { Page, Position, StreamOptions as Options } from "@community-api/core/PageAhead"
import { Page as ListPage } from "@community-api/effect4-schema"
import { Effect, Fiber, Option, Stream } from "effect"

export type {
  /**
   * Where a page starts and how many records it holds.
   *
   * @since 0.1.0
   * @category models
   */
  Position
} from "@community-api/core/PageAhead"

export type {
  /**
   * A page as streamed: its new records, the total, and where it started.
   *
   * @since 0.1.0
   * @category models
   */
  Page
} from "@community-api/core/PageAhead"

export {
  /**
   * What tells two records apart: the id, a community's channel and number, or the whole record.
   *
   * @since 0.1.0
   * @category utils
   */
  keyOf
} from "@community-api/core/PageAhead"

export type {
  /**
   * Options of a stream of pages.
   *
   * @since 0.1.0
   * @category options
   */
  StreamOptions as Options
} from "@community-api/core/PageAhead"

/**
 * The pages of a list from `options.offset` on, each fetched while the ones before it are consumed.
 *
 * @example
 * ```ts
 * import { Paginate } from "@community-api/effect4-client"
 * import { Effect, Stream } from "effect"
 * import { deepStrictEqual } from "node:assert"
 *
 * // 250 records served 100 at a time: the pages, with the total the server counted.
 * const records = Array.from({ length: 250 }, (_, i) => ({ id: i + 1 }))
 * const fetch = ({ count, offset }: Paginate.Position) =>
 *   Effect.succeed({ items: records.slice(offset, offset + count), total: records.length })
 *
 * const pages = await Effect.runPromise(Stream.runCollect(Paginate.pages(fetch, { pageSize: 100 })))
 * deepStrictEqual(pages.map((page) => page.items.length), [100, 100, 50])
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const pages = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<Page<A>, E, R> =>
  Stream.unwrap(Effect.gen(function*() {
    // Made anew at each run of the stream: the plan and the pages in flight are the run's own.
    const run = PageAhead.run<Fiber.Fiber<ListPage.Page<A>, E>>({ ...options, maxCount: ListPage.maxCount })
    const scope = yield* Effect.scope
    // The pages at `offsets`, fetched in the stream's scope: each runs while the caller consumes the
    // page before it, and ends with the stream. Each starts at once, on this fiber until its first
    // wait: a fork left to the scheduler can start after the `TestClock` has already run past the
    // caller's wait over the page handed over (the request then goes out only once that page is
    // consumed).
    const ask = (offsets: ReadonlyArray<number>) =>
      Effect.forEach(offsets, (offset) =>
        Effect.map(
          Effect.forkIn(fetch({ offset, count: run.count }), scope, { startImmediately: true }),
          (fiber) => run.started(offset, fiber)
        ), { discard: true })
    yield* ask([run.first])
    // What to ask for, hand over and give up is the core's plan of the stream (`PageAhead.run`).
    return Stream.paginate(run.first, (offset) =>
      Effect.flatMap(Fiber.join(run.take(offset)), (page) => {
        const step = run.answered(offset, page)
        return Effect.forEach(step.giveUp, Fiber.interrupt, { discard: true }).pipe(
          Effect.andThen(ask(step.ask)),
          Effect.as([[step.page], Option.fromNullishOr(step.next)] as const)
        )
      }))
  }))

/**
 * Every record of a list from `options.offset` on.
 *
 * @example
 * ```ts
 * import { Paginate } from "@community-api/effect4-client"
 * import { Effect, Stream } from "effect"
 * import { strictEqual } from "node:assert"
 *
 * // A list of 1,200 records, served a page at a time as a list operation does.
 * const records = Array.from({ length: 1200 }, (_, i) => ({ id: i + 1 }))
 * const fetch = ({ count, offset }: Paginate.Position) =>
 *   Effect.succeed({ items: records.slice(offset, offset + count), total: records.length })
 *
 * const all = await Effect.runPromise(Stream.runCollect(Paginate.stream(fetch)))
 * strictEqual(all.length, 1200)
 * strictEqual(all.at(-1)?.id, 1200)
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const stream = <A, E, R>(
  fetch: (position: Position) => Effect.Effect<ListPage.Page<A>, E, R>,
  options: Options = {}
): Stream.Stream<A, E, R> => Stream.flattenIterable(Stream.map(pages(fetch, options), (page) => page.items))
