/**
 * Which pages a stream over a list asks for ahead of the caller. A request for a page of 500 takes
 * the server tens of milliseconds, and with one page asked at a time a stream waits for each answer
 * in turn, well under the rate of 30 a second; with several pages in flight it keeps to the rate. A
 * page after the next is asked for before the next one has answered, at the offset the pages before it
 * end at when full: it is asked only when the last `total` says that page exists, and given up (its
 * offset was wrong) if a page before it comes back short. So a list that does not change while it is
 * read takes exactly one request per page. {@link reader} keeps the whole plan of a stream, sans I/O:
 * each line's `Paginate` only forks, joins and interrupts the requests it decides.
 *
 * @since 0.1.0
 */

/**
 * How many pages a stream has in flight while the caller consumes one: the next and the one after it.
 * Two keep a stream at the user's 30 requests a second while the server takes tens of milliseconds a
 * page of 500 (B3 gave 1.026× the minimum time with two, 1.043× with three, whose answers vary more and
 * so make the pacing hold its permits longer); at most these and the page being consumed are held.
 *
 * @since 0.1.0
 * @category constants
 */
export const inFlight = 2

/**
 * The offsets to have in flight once the page at `offset` answered `items` records of `total`, pages
 * being `count` long: the page that follows it and the ones after that, at most `ahead` (default
 * {@link inFlight}), none at or past `total`. Empty when the page was the last: it was empty or
 * reached `total`.
 *
 * @since 0.1.0
 * @category utils
 */
export const plan = (
  page: { readonly offset: number; readonly items: number; readonly total: number; readonly count: number },
  ahead: number = inFlight
): ReadonlyArray<number> => {
  const next = page.offset + page.items
  if (page.items === 0 || next >= page.total) return []
  const offsets = [next]
  for (let i = 1; i < ahead && next + i * page.count < page.total; i++) offsets.push(next + i * page.count)
  return offsets
}

/**
 * The identity of an item, to drop repeats: its `id`, else its community pair, else its JSON.
 *
 * @since 0.1.0
 * @category utils
 */
export const keyOf = (item: unknown): string => {
  if ((typeof item === "object" && item !== null) || typeof item === "function") {
    const record = item as { readonly id?: unknown; readonly group_id?: unknown; readonly channel?: unknown }
    if (typeof record.id === "string") return `id:${record.id}`
    if ("group_id" in record && "channel" in record) {
      return `community:${String(record.channel)}:${String(record.group_id)}`
    }
  }
  return `json:${JSON.stringify(item)}`
}

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
 * What a caller asks of a stream over a list.
 *
 * @since 0.1.0
 * @category options
 */
export interface StreamOptions {
  /** The offset of the first page; default 0. */
  readonly offset?: number | undefined
  /** Records per page; default (and at most) the most the API gives, 500. */
  readonly pageSize?: number | undefined
  /** The identity of an item, to drop repeats; default {@link keyOf}. */
  readonly key?: ((item: unknown) => string) | undefined
}

/**
 * What a {@link reader} is given: the caller's {@link StreamOptions} and `maxCount`, the most records
 * the API gives in a page (the page size's default and bound).
 *
 * @since 0.1.0
 * @category options
 */
export interface Options extends StreamOptions {
  readonly maxCount: number
}

/**
 * A page as a stream hands it over: the items the server gave at `offset` that were not seen on the
 * pages before (so fewer than asked for when records shifted during paging), and `total` as the
 * server counted it for this request, every matching record from offset 0, not only those from the
 * start offset. A caller that wants the records from its start offset counts `total - start`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
  /** Where the page was asked for: the start offset plus every record the pages before held, repeats included. */
  readonly offset: number
}

/**
 * What to do once a page answered: the page to hand over (its items not seen on the pages before,
 * `total` as the server counted it, and the offset it was asked at), the pages in flight to give up
 * (asked where a page that came back short said the list would go on), the pages to ask for now, in
 * this order, and the page to hand over next (none: the stream ends).
 *
 * @since 0.1.0
 * @category models
 */
export interface Step<A> {
  readonly page: Page<A>
  readonly giveUp: ReadonlyArray<number>
  readonly ask: ReadonlyArray<number>
  readonly next: number | undefined
}

/**
 * A stream over a list, sans I/O: the pages it asks for and hands over, decided from the answers. It
 * asks first for {@link Reader.first}; each answer, given to {@link Reader.answered}, says what to do.
 *
 * @since 0.1.0
 * @category models
 */
export interface Reader {
  /** The records a page. */
  readonly count: number
  /** The offset of the first page, asked for at once. */
  readonly first: number
  /** The page at `offset` (the next to hand over) answered `page`. */
  readonly answered: <A>(
    offset: number,
    page: { readonly items: ReadonlyArray<A>; readonly total: number }
  ) => Step<A>
}

/**
 * A stream over a list (see {@link Reader}). Newest records come first, so a record created during
 * paging pushes older ones one place down and the next page would repeat them; items already seen are
 * dropped, by {@link Options.key}. Only the keys of the last two pages are kept, so memory does not
 * grow with the length of the list: repeats are dropped as long as fewer than two pages of records
 * arrive between two requests. The pages in flight are those of {@link plan}: the first page is
 * always handed over, even empty (it carries `total` for an empty list or an offset past the end), and
 * the stream ends after a page that was empty or reached `total`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const reader = (options: Options): Reader => {
  const count = Math.min(options.pageSize ?? options.maxCount, options.maxCount)
  const first = options.offset ?? 0
  const key = options.key ?? keyOf
  // The keys of the page before the last, and of the last.
  let older = new Set<string>()
  let last = new Set<string>()
  // The pages asked for and not yet handed over, in the order they are handed over.
  let asked: ReadonlyArray<number> = [first]
  return {
    count,
    first,
    answered: (offset, page) => {
      const seen = new Set<string>()
      const items = page.items.filter((item) => {
        const k = key(item)
        const repeated = last.has(k) || older.has(k) || seen.has(k)
        seen.add(k)
        return !repeated
      })
      older = last
      last = seen
      const offsets = plan({ offset, items: page.items.length, total: page.total, count })
      const others = asked.filter((o) => o !== offset)
      asked = offsets
      return {
        page: { items, total: page.total, offset },
        giveUp: others.filter((o) => !offsets.includes(o)),
        ask: offsets.filter((o) => !others.includes(o)),
        next: offsets[0]
      }
    }
  }
}

/**
 * The pages of a stream being fetched, by offset: what the line started for each (a fiber), kept
 * until the page is handed over or given up.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fetches<F> {
  /** The fetch of the page at `offset` started. */
  readonly started: (offset: number, fetch: F) => void
  /** The fetch of the page at `offset`, kept no longer: its page is handed over or given up. */
  readonly take: (offset: number) => F
}

/**
 * An empty table of the pages being fetched (see {@link Fetches}); one per run of a stream.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fetches = <F>(): Fetches<F> => {
  const byOffset = new Map<number, F>()
  return {
    started: (offset, fetch) => {
      byOffset.set(offset, fetch)
    },
    take: (offset) => {
      const fetch = byOffset.get(offset)!
      byOffset.delete(offset)
      return fetch
    }
  }
}

/**
 * A stream over a list with its fetches in flight (a {@link Reader} and its {@link Fetches}): the line
 * says when it started the fetch of a page and takes the one to hand over next; each answer says which
 * fetches to give up (taken here) and which pages to ask for.
 *
 * @since 0.1.0
 * @category models
 */
export interface Run<F> {
  /** The records a page. */
  readonly count: number
  /** The offset of the first page, asked for at once. */
  readonly first: number
  /** The fetch of the page at `offset` started. */
  readonly started: (offset: number, fetch: F) => void
  /** The fetch of the page at `offset`, the next to hand over, kept no longer. */
  readonly take: (offset: number) => F
  /** The page at `offset` answered `page`: {@link Reader.answered}, its pages given up as their fetches. */
  readonly answered: <A>(
    offset: number,
    page: { readonly items: ReadonlyArray<A>; readonly total: number }
  ) => Omit<Step<A>, "giveUp"> & { readonly giveUp: ReadonlyArray<F> }
}

/**
 * A run of a stream over a list (see {@link Run}); made anew at each run of the stream, the plan and
 * the pages in flight being the run's own.
 *
 * @since 0.1.0
 * @category constructors
 */
export const run = <F>(options: Options): Run<F> => {
  const plan = reader(options)
  const fetching = fetches<F>()
  return {
    count: plan.count,
    first: plan.first,
    started: fetching.started,
    take: fetching.take,
    answered: (offset, page) => {
      const step = plan.answered(offset, page)
      return { ...step, giveUp: step.giveUp.map(fetching.take) }
    }
  }
}
