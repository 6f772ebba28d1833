/**
 * The key of a user in the shared limiters: the one a caller gives (the client's `userKey`), which
 * {@link problem} checks, or, when the caller gives none, one derived from the token, the same in every
 * process of either Effect line, so that their permits and counts meet in one Redis. The token itself
 * is never kept as a key.
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
 * @example
 * ```ts
 * import * as UserKey from "@community-api/core/UserKey"
 * import { notStrictEqual, ok, strictEqual } from "node:assert"
 *
 * // Every process derives the same key from the same token, and the key never holds the token.
 * const key = UserKey.ofToken("demo-token-of-the-owner")
 * strictEqual(key, UserKey.ofToken("demo-token-of-the-owner"))
 * notStrictEqual(key, UserKey.ofToken("another-token"))
 * ok(!key.includes("demo-token"))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const ofToken = (token: string): string =>
  `token:${hashString(token).toString(36)}:${hashString(token.split("").reverse().join("")).toString(36)}`

/**
 * Why `key` cannot be a user's key, or `undefined` when it can. The rule of both lines' clients,
 * checked when a client is made:
 *
 * - an empty key is refused: the limiters' Redis keys carry the user key as a hash tag (`{userKey}`),
 *   and `{}` is no hash tag, so on a Redis Cluster a user's keys would fall in several slots and every
 *   call would fail with `LimiterUnavailable`;
 * - a key of whitespace alone is refused too: it names no user, and is nearly always a variable set
 *   blank; taken for unset, it would silently give each token of the user its own limits.
 *
 * Any other text is a key as it is given, spaces around it included (not trimmed: every client of the
 * user must give the same text).
 *
 * @since 0.1.0
 * @category utils
 */
export const problem = (key: string): string | undefined =>
  key === ""
    ? "it is empty, and the limiters' Redis keys carry it as a hash tag {userKey}: {} is none, so on a " +
      "Redis Cluster the user's keys would fall in several slots; leave userKey unset to key the limits " +
      "by a hash of the token"
    : key.trim() === ""
    ? "it is whitespace only, which names no user; give the user's name, or leave userKey unset to key " +
      "the limits by a hash of the token"
    : undefined
