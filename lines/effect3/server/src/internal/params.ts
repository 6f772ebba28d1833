/**
 * Reads the parameters of a request (C2): the query string, then the body as JSON, urlencoded or
 * multipart form, each by the rules of `formats.ts` (the first occurrence of a name wins within a
 * source); across the two sources a body value wins over a query value of the same name. Reading
 * never fails: a source that cannot be read contributes no parameters and gives the text of the
 * error 7 to answer once the caller is authenticated.
 *
 * @internal
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Either } from "effect"
import { Buffer } from "node:buffer"
import type { BodyBudget } from "./body.js"
import { collect, maxBodyBytes } from "./body.js"
import * as Formats from "./formats.js"
import * as Texts from "./texts.js"

export { maxBodyBytes } from "./body.js"

export interface RequestParams {
  readonly params: Record<string, unknown>
  /** Why the query or the body could not be read, when one could not. */
  readonly bodyError: string | undefined
}

/** The query parameters of a request URL (first value of a repeated name), or why they cannot be read. */
export const queryOf = (url: string): Formats.Parsed => {
  const at = url.indexOf("?")
  return at < 0 ? Either.right({}) : Formats.urlEncoded(url.slice(at + 1))
}

/** The path of a request URL, without the query string (which may carry `api_key`). */
export const pathOf = (url: string): string => {
  const at = url.indexOf("?")
  return at < 0 ? url : url.slice(0, at)
}

const parseBody = (bytes: Uint8Array, contentType: string): Formats.Parsed => {
  const mime = contentType.split(";")[0]!.trim().toLowerCase()
  if (mime === "" || mime === "application/json" || mime.endsWith("+json")) return Formats.json(bytes)
  if (mime === "application/x-www-form-urlencoded") {
    // Byte for byte as Latin-1, so that percent-escapes and raw bytes are decoded as UTF-8 together.
    return Formats.urlEncoded(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"))
  }
  if (mime === "multipart/form-data") return Formats.multipart(bytes, contentType)
  return Either.left(Texts.unsupportedContentType(mime))
}

/** Reads the query and the body of a request; on a port, the body takes its share of `budget`. */
export const read = (
  request: HttpServerRequest.HttpServerRequest,
  budget?: BodyBudget
): Effect.Effect<RequestParams> => {
  const query = queryOf(request.url)
  const queryParams = Either.getOrElse(query, () => ({}))
  const queryError = Either.isLeft(query) ? query.left : undefined
  const declared = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    return Effect.succeed({ params: queryParams, bodyError: queryError ?? Texts.bodyTooLarge(maxBodyBytes) })
  }
  return collect(request, budget).pipe(
    Effect.flatMap((bytes) => {
      if (bytes === "tooLarge") return Effect.fail(Texts.bodyTooLarge(maxBodyBytes))
      if (bytes.length === 0) return Effect.succeed({})
      return Either.match(parseBody(bytes, request.headers["content-type"] ?? ""), {
        onLeft: Effect.fail,
        onRight: Effect.succeed
      })
    }),
    Effect.match({
      onFailure: (bodyError): RequestParams => ({ params: queryParams, bodyError: queryError ?? bodyError }),
      onSuccess: (body): RequestParams => ({ params: { ...queryParams, ...body }, bodyError: queryError })
    }),
    Effect.catchAllDefect(() =>
      Effect.succeed<RequestParams>({ params: queryParams, bodyError: queryError ?? Texts.unreadableBody })
    )
  )
}
