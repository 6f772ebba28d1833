/**
 * The base URL of the API as both Effect lines' clients take it (`baseUrl`, or
 * `COMMUNITY_API_BASE_URL`): the rule that refuses one that cannot work, and the form requests are
 * made from. One rule, so that a configuration read from the environment is refused as a typed
 * configuration error with the same reason the client gives when it is made.
 *
 * @since 0.1.0
 */
import * as Environment from "./Environment.js"

/**
 * A base URL read: the form requests are made from, or why it is refused.
 *
 * @since 0.1.0
 * @category models
 */
export type Read =
  | { readonly _tag: "Valid"; readonly url: string }
  | { readonly _tag: "Refused"; readonly reason: string }

/**
 * The path of version 2 of the API below the service's address, which a base URL ends with.
 *
 * @since 0.1.0
 * @category constants
 */
export const apiPath = "/external-api/v2"

/**
 * `url` without its trailing slashes: `{base_url}/` and `{base_url}` name the same API.
 *
 * @since 0.1.0
 * @category utils
 */
export const trimTrailingSlashes = (url: string): string => url.replace(/\/+$/, "")

/**
 * Reads a base URL: an absolute URL with no query string and no credentials (a token goes in a header,
 * never in a URL), without its trailing slashes. The reason of a refusal never repeats the input: a
 * URL with credentials in it holds a secret.
 *
 * @example
 * ```ts
 * import * as BaseUrl from "@community-api/core/BaseUrl"
 * import { deepStrictEqual, strictEqual } from "node:assert"
 *
 * deepStrictEqual(BaseUrl.read("https://api.example.com/external-api/v2/"), {
 *   _tag: "Valid",
 *   url: "https://api.example.com/external-api/v2"
 * })
 * strictEqual(BaseUrl.read("https://user:secret@api.example.com/external-api/v2")._tag, "Refused")
 * ```
 *
 * @since 0.1.0
 * @category decoding
 */
export const read = (input: string | URL): Read => {
  let url: URL
  try {
    url = new URL(String(input))
  } catch {
    return { _tag: "Refused", reason: `it is not an absolute URL (such as https://host${apiPath})` }
  }
  if (url.username !== "" || url.password !== "") {
    return { _tag: "Refused", reason: `it carries credentials: the token goes in ${Environment.token}, never in a URL` }
  }
  if (url.search !== "") return { _tag: "Refused", reason: "it carries a query string" }
  // The usual mistake: the service's address alone. Any other path is taken as given: gateways rewrite
  // paths, and tests serve the API under other ones.
  if (/^\/*$/.test(url.pathname)) {
    return {
      _tag: "Refused",
      reason: `it has no path: the API's base URL ends with ${apiPath} (${url.origin}${apiPath})`
    }
  }
  return { _tag: "Valid", url: trimTrailingSlashes(url.toString()) }
}

/**
 * Why `input` cannot be a base URL, or `undefined` when it can.
 *
 * @example
 * ```ts
 * import * as BaseUrl from "@community-api/core/BaseUrl"
 * import { strictEqual } from "node:assert"
 *
 * strictEqual(BaseUrl.problem("https://api.example.com/external-api/v2"), undefined)
 * strictEqual(
 *   BaseUrl.problem("https://api.example.com"),
 *   "it has no path: the API's base URL ends with /external-api/v2 (https://api.example.com/external-api/v2)"
 * )
 * ```
 *
 * @since 0.1.0
 * @category utils
 */
export const problem = (input: string | URL): string | undefined => {
  const result = read(input)
  return result._tag === "Refused" ? result.reason : undefined
}
