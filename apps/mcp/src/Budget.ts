/**
 * How much of a list one tool answer carries: items are kept while their JSON fits a budget of
 * characters, so an answer never floods an assistant's context, whatever `all` asks; `next_offset`
 * then says where to go on.
 *
 * @since 0.1.0
 */

/**
 * The default budget of one answer's items, in characters of JSON: about 5,000 tokens.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaultChars = 20_000

/**
 * The items kept, and where the next answer starts when some were left out.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cut<A> {
  readonly items: ReadonlyArray<A>
  /** The offset of the first item left out; absent when nothing was. */
  readonly nextOffset: number | undefined
}

/**
 * An item and its offset in the list. Gathered pages may skip an offset (an item a page repeats from
 * the one before, when the list moved, is given once), so an item's offset is not always the one
 * before it plus one.
 *
 * @since 0.1.0
 * @category models
 */
export interface Placed<A> {
  readonly item: A
  readonly at: number
}

/**
 * The characters of an item's JSON.
 *
 * @since 0.1.0
 * @category utils
 */
export const sizeOf = (item: unknown): number => (JSON.stringify(item) as string | undefined)?.length ?? 0

/**
 * The characters the JSON of `items` adds to a list: each item and a comma before each but the first.
 *
 * @since 0.1.0
 * @category utils
 */
export const charsOf = (items: ReadonlyArray<unknown>): number =>
  items.reduce<number>((sum, item, index) => sum + sizeOf(item) + (index === 0 ? 0 : 1), 0)

/**
 * Keeps the first placed items whose JSON together fits `chars` (always at least one, so that paging
 * moves on). The next offset is that of the first item left out or, when every item is kept, `end`
 * (where the pages read ended) while it is short of `total`; none when no item was given.
 *
 * @since 0.1.0
 * @category utils
 */
export const cutPlaced = <A>(entries: ReadonlyArray<Placed<A>>, options: {
  readonly chars: number
  readonly end: number
  readonly total: number
}): Cut<A> => {
  let used = 0
  let kept = 0
  for (const { item } of entries) {
    const size = sizeOf(item) + (kept === 0 ? 0 : 1)
    if (kept > 0 && used + size > options.chars) break
    used += size
    kept++
  }
  const items = entries.slice(0, kept).map((entry) => entry.item)
  // An empty page says nothing of where to go on: pointing at it again would loop.
  if (kept === 0) return { items, nextOffset: undefined }
  if (kept < entries.length) return { items, nextOffset: entries[kept]!.at }
  return { items, nextOffset: options.end < options.total ? options.end : undefined }
}

/**
 * Keeps the first items whose JSON together fits `chars` (always at least one, so that paging moves
 * on), the list starting at `offset` and holding `total` items in all.
 *
 * @since 0.1.0
 * @category utils
 */
export const cut = <A>(items: ReadonlyArray<A>, options: {
  readonly chars: number
  readonly offset: number
  readonly total: number
}): Cut<A> =>
  cutPlaced(items.map((item, index) => ({ item, at: options.offset + index })), {
    chars: options.chars,
    end: options.offset + items.length,
    total: options.total
  })
