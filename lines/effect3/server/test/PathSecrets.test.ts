/**
 * A token put in the request's path, percent-escaped so that it does not look like one as sent
 * (`/%74hp_…/me`), on a real port: no part of it reaches the error text, the request log or the
 * server's spans. Only a known section and method, or a plain word, is ever shown from a path.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { errorOf, okOf, port, send } from "./portSupport.js"
import * as RecordingTracer from "./recordingTracer.js"

const secrets = [DemoFixture.tokens.owner, DemoFixture.tokens.accountKey, "thp_never_issued_0a1b2c3d4e5f6a7b8c9d"]

const hex = (text: string) => [...Buffer.from(text, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`)

/**
 * Ways to write a secret in a path segment: its first byte escaped, every byte escaped, upper-case
 * escapes, its underscores escaped (the account key, which has none, as it is).
 */
const disguises = (secret: string): Array<string> => [
  `${hex(secret[0]!)[0]}${secret.slice(1)}`,
  hex(secret).join(""),
  hex(secret).map((escape) => escape.toUpperCase()).join(""),
  secret.replaceAll("_", "%5F")
]

/** Places of a segment in a path: version, section, method, outside the API, past the method. */
const paths = (segment: string): Array<string> => [
  `/external-api/${segment}/me`,
  `/external-api/v2/${segment}/me`,
  `/external-api/v2/users/${segment}`,
  `/external-api/v2/${segment}`,
  `/external-api/v2/users/me/${segment}`,
  `/${segment}`
]

/** Every stretch of `text` of `length` characters: none may be written. */
const windows = (text: string, length: number) =>
  Array.from({ length: Math.max(1, text.length - length + 1) }, (_, i) => text.slice(i, i + length))

/** Every span written as text. */
const recording = () => {
  const written: Array<string> = []
  return { written, layer: Layer.setTracer(RecordingTracer.make(written)) }
}

describe("a token in the path, on a port", () => {
  it.live("C6 V2 V3 A1 a percent-escaped token in the path is in no error text, request log line or span", () => {
    const { layer, written } = recording()
    const log: Array<string> = []
    return Effect.gen(function*() {
      const portNumber = yield* port
      const texts: Array<string> = []
      for (const secret of secrets) {
        for (const segment of disguises(secret)) {
          for (const path of paths(segment)) {
            const refused = errorOf(
              yield* send(portNumber, {
                path,
                headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
              })
            )
            expect([1, 3], path).toContain(refused.code)
            texts.push(refused.text)
          }
        }
      }
      // The server traces and logs a request to a known address: the recording did see the server.
      okOf(
        yield* send(portNumber, {
          path: "/external-api/v2/users/me",
          headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` }
        })
      )
      expect(written.some((line) => line.startsWith("span http.server"))).toBe(true)
      expect(log).toHaveLength(secrets.length * 4 * 6 + 1)

      const everything = [...texts, ...log, ...written].join("\n")
      const parts = secrets.flatMap((secret) => [
        ...windows(secret, 8),
        ...disguises(secret).flatMap((segment) => windows(segment, 12))
      ])
      expect(parts.filter((part) => everything.includes(part))).toEqual([])
      // What is shown instead: the path with the segment masked, the section and method when known.
      expect(log).toContain(JSON.stringify({ path: "/external-api/v2/users/«…»", outcome: 3 }))
    }).pipe(
      Effect.provide(
        ReferenceServer.layerServe({
          port: 0,
          onRequest: (entry) => log.push(JSON.stringify({ path: entry.path, outcome: entry.outcome }))
        }).pipe(Layer.provide(layer))
      ),
      Effect.provide(layer)
    )
  }, 60_000)
})
