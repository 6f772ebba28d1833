/**
 * Which pages a stream over a list asks for ahead of the caller. A request for a page of 500 takes
 * the server tens of milliseconds, and with one page asked at a time a stream waits for each answer
 * in turn, well under the rate of 30 a second; with several pages in flight it keeps to the rate. A
 * page after the next is asked for before the next one has answered, at the offset the pages before it
 * end at when full: it is asked only when the last `total` says that page exists, and given up (its
 * offset was wrong) if a page before it comes back short. So a list that does not change while it is
 * read takes exactly one request per page.
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
