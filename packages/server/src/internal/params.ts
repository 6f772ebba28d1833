/**
 * Reads the parameters of a request (C2): the query string, then the body as JSON, urlencoded or
 * multipart form; body values win over query values of the same name. Reading never fails: a body
 * that cannot be read gives the text of the error 7 to answer once the caller is authenticated.
 *
 * @internal
 */
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Stream } from "effect"
import * as Texts from "./texts.js"

/** The largest body the server reads (an assumption: the spec states no bound). */
export const maxBodyBytes = 1024 * 1024

export interface RequestParams {
  readonly params: Record<string, unknown>
  /** Why the body could not be read, when it could not. */
  readonly bodyError: string | undefined
}

const firstValues = (entries: Iterable<[string, unknown]>): Record<string, unknown> => {
  const out: Record<string, unknown> = {}
  for (const [key, value] of entries) if (!Object.hasOwn(out, key)) out[key] = value
  return out
}

/** The query parameters of a request URL (first value of a repeated name). */
export const queryOf = (url: string): Record<string, unknown> => {
  const at = url.indexOf("?")
  return at < 0 ? {} : firstValues(new URLSearchParams(url.slice(at + 1)).entries())
}

/** The path of a request URL, without the query string (which may carry `api_key`). */
export const pathOf = (url: string): string => {
  const at = url.indexOf("?")
  return at < 0 ? url : url.slice(0, at)
}

const parseBody = (bytes: Uint8Array, contentType: string): Effect.Effect<Record<string, unknown>, string> => {
  const mime = contentType.split(";")[0]!.trim().toLowerCase()
  if (mime === "" || mime === "application/json" || mime.endsWith("+json")) {
    return Effect.try({
      try: () => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as unknown,
      catch: () => Texts.malformedJson
    }).pipe(
      Effect.filterOrFail(
        (json): json is Record<string, unknown> => typeof json === "object" && json !== null && !Array.isArray(json),
        () => Texts.malformedJson
      )
    )
  }
  if (mime === "application/x-www-form-urlencoded") {
    return Effect.sync(() => firstValues(new URLSearchParams(new TextDecoder().decode(bytes)).entries()))
  }
  if (mime === "multipart/form-data") {
    return Effect.tryPromise({
      try: () => new Response(bytes as BodyInit, { headers: { "content-type": contentType } }).formData(),
      catch: () => Texts.unreadableBody
    }).pipe(Effect.map((form) => {
      const fields: Array<[string, unknown]> = []
      form.forEach((value, key) => {
        if (typeof value === "string") fields.push([key, value])
      })
      return firstValues(fields)
    }))
  }
  return Effect.fail(Texts.unsupportedContentType(mime))
}

interface Collected {
  readonly parts: Array<Uint8Array>
  size: number
}

/** The bytes collected, or `"tooLarge"` past `maxBodyBytes`. */
const assemble = (acc: Collected): Uint8Array | "tooLarge" => {
  if (acc.size > maxBodyBytes) return "tooLarge"
  if (acc.parts.length === 1) return acc.parts[0]!
  const out = new Uint8Array(acc.size)
  let offset = 0
  for (const part of acc.parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** A Node.js readable (the request of a real port), read directly rather than through a `Stream`. */
interface NodeReadable {
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  readonly readableEnded: boolean
}

const isNodeReadable = (source: unknown): source is NodeReadable =>
  typeof source === "object" && source !== null && typeof (source as NodeReadable).on === "function" &&
  typeof (source as NodeReadable).off === "function" && typeof (source as NodeReadable).readableEnded === "boolean"

/** `collect` for a Node.js request: the same bounds and failures, with listeners instead of a stream. */
const collectNode = (source: NodeReadable): Effect.Effect<Uint8Array | "tooLarge", string> =>
  Effect.async((resume) => {
    const acc: Collected = { parts: [], size: 0 }
    const onData = (chunk: Uint8Array) => {
      if (acc.size <= maxBodyBytes) acc.parts.push(chunk)
      acc.size += chunk.length
    }
    const onEnd = () => {
      stop()
      resume(Effect.succeed(assemble(acc)))
    }
    const onError = () => {
      stop()
      resume(acc.size === 0 ? Effect.succeed(new Uint8Array(0)) : Effect.fail(Texts.unreadableBody))
    }
    const onClose = () => {
      if (!source.readableEnded) onError()
    }
    const stop = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    source.on("data", onData)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
    return Effect.sync(stop)
  })

/**
 * Reads the whole body, keeping at most `maxBodyBytes + 1` bytes: a larger body is drained, never
 * held, so memory stays flat and the connection stays usable for the answer. A failure before the
 * first byte is an empty body (an in-process request with no body has no stream).
 */
const collect = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<Uint8Array | "tooLarge", string> => {
  if (isNodeReadable(request.source)) return collectNode(request.source)
  const acc: Collected = { parts: [], size: 0 }
  return request.stream.pipe(
    Stream.runForEach((chunk) =>
      Effect.sync(() => {
        if (acc.size <= maxBodyBytes) acc.parts.push(chunk)
        acc.size += chunk.length
      })
    ),
    Effect.catchAll(() => acc.size === 0 ? Effect.void : Effect.fail(Texts.unreadableBody)),
    Effect.map(() => assemble(acc))
  )
}

/** Reads the query and the body of a request. */
export const read = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<RequestParams> => {
  const query = queryOf(request.url)
  const declared = Number(request.headers["content-length"] ?? "0")
  if (Number.isFinite(declared) && declared > maxBodyBytes) {
    return Effect.succeed({ params: query, bodyError: Texts.bodyTooLarge(maxBodyBytes) })
  }
  return collect(request).pipe(
    Effect.flatMap((bytes) => {
      if (bytes === "tooLarge") return Effect.fail(Texts.bodyTooLarge(maxBodyBytes))
      if (bytes.length === 0) return Effect.succeed({})
      return parseBody(bytes, request.headers["content-type"] ?? "")
    }),
    Effect.match({
      onFailure: (bodyError): RequestParams => ({ params: query, bodyError }),
      onSuccess: (body): RequestParams => ({ params: { ...query, ...body }, bodyError: undefined })
    }),
    Effect.catchAllDefect(() => Effect.succeed<RequestParams>({ params: query, bodyError: Texts.unreadableBody }))
  )
}
