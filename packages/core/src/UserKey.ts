/**
 * The key of a user in the shared limiters when the caller gives none: derived from the token, the
 * same in every process of either Effect line, so that their permits and counts meet in one Redis.
 * The token itself is never kept as a key.
 *
 * @since 0.1.0
 */

/** Effect's string hash (djb2, xor form, with its bit fold), written out so both lines agree on it. */
const hashString = (text: string): number => {
  let h = 5381
  let i = text.length
  while (i) h = (h * 33) ^ text.charCodeAt(--i)
  return (h & 0xbfffffff) | ((h >>> 1) & 0x40000000)
}

/**
 * The key of the user of `token`: two hashes of it (forward and reversed), never the token.
 *
 * @since 0.1.0
 * @category constructors
 */
export const ofToken = (token: string): string =>
  `token:${hashString(token).toString(36)}:${hashString(token.split("").reverse().join("")).toString(36)}`
