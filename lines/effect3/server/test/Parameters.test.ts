/**
 * How parameters are read, the same in every format (C2, C3), over a real port: names starting with
 * `_` refused from every source, one rule for a repeated name, invalid UTF-8 refused, and the bound on
 * a variable's value. Each test stays under the request rate of one user (L1): a fresh server each.
 */
import { Variable } from "@community-api/schema"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import type { RawRequest } from "./portSupport.js"
import { errorOf, okOf, port, send } from "./portSupport.js"

const main = DemoFixture.mainCommunity
const bearer = { authorization: `Bearer ${DemoFixture.tokens.owner}` }
const boundary = "sandbox-test-boundary-7f3a"

type Format = "json" | "form" | "multipart" | "query"
const formats: ReadonlyArray<Format> = ["json", "form", "multipart", "query"]

/** A value as text, or as raw bytes sent as they are. */
type Value = string | Uint8Array
type Pair = readonly [string, Value]

const bytes = (value: Value) => typeof value === "string" ? Buffer.from(value, "utf8") : Buffer.from(value)
const percent = (value: Value) => typeof value === "string" ? encodeURIComponent(value) : Buffer.from(value)

const urlEncoded = (pairs: ReadonlyArray<Pair>): Buffer =>
  Buffer.concat(pairs.flatMap(([name, value], i) => [
    Buffer.from(`${i === 0 ? "" : "&"}${encodeURIComponent(name)}=`),
    typeof value === "string" ? Buffer.from(percent(value)) : Buffer.from(value)
  ]))

/** Bytes past ASCII as `%XX`. */
const escapeBytes = (raw: Buffer): string =>
  [...raw].map((byte) => byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase()}`).join("")

/** A request to `path` carrying `pairs`, repeats and raw bytes kept, in `format`. */
const request = (path: string, format: Format, pairs: ReadonlyArray<Pair>): RawRequest => {
  const url = `/external-api/v2/${path}`
  switch (format) {
    case "json":
      return {
        path: url,
        headers: { ...bearer, "content-type": "application/json" },
        body: Buffer.concat([
          Buffer.from("{"),
          ...pairs.flatMap(([name, value], i) => [
            Buffer.from(`${i === 0 ? "" : ","}${JSON.stringify(name)}:"`),
            typeof value === "string" ? Buffer.from(JSON.stringify(value).slice(1, -1)) : Buffer.from(value),
            Buffer.from("\"")
          ]),
          Buffer.from("}")
        ])
      }
    case "form":
      return {
        path: url,
        headers: { ...bearer, "content-type": "application/x-www-form-urlencoded" },
        body: urlEncoded(pairs)
      }
    case "multipart":
      return {
        path: url,
        headers: { ...bearer, "content-type": `multipart/form-data; boundary=${boundary}` },
        body: Buffer.concat([
          ...pairs.flatMap(([name, value]) => [
            Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
            bytes(value),
            Buffer.from("\r\n")
          ]),
          Buffer.from(`--${boundary}--\r\n`)
        ])
      }
    case "query":
      // Node.js refuses raw bytes past ASCII in a request line (HTTP 400): they arrive percent-escaped.
      return { path: `${url}?${escapeBytes(urlEncoded(pairs))}`, headers: bearer, body: "" }
  }
}

const mainPairs: ReadonlyArray<Pair> = [["group_id", String(main.group_id)], ["channel", main.channel]]

const served = Effect.provide(ReferenceServer.layerServe({ port: 0 }))

describe("parameters on a port, the same in every format", () => {
  it.live("C3 a name starting with _ is refused with 7 in every format, __proto__ included", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      for (const format of formats) {
        for (const name of ["__proto__", "_debug"]) {
          const refused = errorOf(yield* send(portNumber, request("vars/list", format, [...mainPairs, [name, "x"]])))
          expect(refused, `${format} ${name}`).toEqual({
            code: 7,
            text: `Параметр «${name}» зарезервирован: параметры, начинающиеся с «_», не принимаются`
          })
        }
      }
    }).pipe(served))

  it.live("C2 a repeated name: the first occurrence wins within the query and within a body of any format", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      for (const format of formats) {
        const pairs: ReadonlyArray<Pair> = [...mainPairs, ["count", "1"], ["count", "3"], ["count", "2"]]
        const page = okOf(yield* send(portNumber, request("vars/list", format, pairs)))
        expect(page.items, format).toHaveLength(1)
      }
    }).pipe(served))

  it.live("C2 across the query and the body, the body wins, whatever the body's format", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      for (const format of ["json", "form", "multipart"] as const) {
        const body = request("vars/list", format, [...mainPairs, ["count", "3"]])
        const page = okOf(yield* send(portNumber, { ...body, path: `${body.path}?count=1&count=2&group_id=1` }))
        expect(page.items, format).toHaveLength(3)
      }
    }).pipe(served))

  it.live("C2 invalid UTF-8 in a name or a value is refused with 7 in every format, and nothing is created", () =>
    Effect.gen(function*() {
      const portNumber = yield* port
      const invalid: ReadonlyArray<Uint8Array> = [
        Uint8Array.of(0xff),
        Uint8Array.of(0x61, 0xc3, 0x28), // a lead byte without its continuation
        Uint8Array.of(0xed, 0xa0, 0x80) // an encoded surrogate
      ]
      let sent = 0
      for (const format of formats) {
        for (const value of invalid) {
          const pairs: ReadonlyArray<Pair> = [...mainPairs, ["name", `v_utf8_${sent++}`], ["title", value]]
          const refused = errorOf(yield* send(portNumber, request("vars/create", format, pairs)))
          expect(refused, `${format} ${Buffer.from(value).toString("hex")}`).toEqual({
            code: 7,
            text: "Параметры запроса не в кодировке UTF-8"
          })
        }
      }
      // Percent-escaped bytes are bytes too, in the query and in a form body, in a name or a value.
      for (const format of ["form", "query"] as const) {
        for (const pairs of [[["title", "%FF"]], [["na%C3%28me", "x"]]] as const) {
          const encoded = request("vars/create", format, [...mainPairs, ["name", "v_escaped"]])
          const extra = pairs.map(([name, value]) => `&${name}=${value}`).join("")
          const refused = errorOf(
            yield* send(
              portNumber,
              format === "query"
                ? { ...encoded, path: `${encoded.path}${extra}` }
                : { ...encoded, body: Buffer.concat([bytes(encoded.body!), Buffer.from(extra)]) }
            )
          )
          expect(refused, `${format} ${extra}`).toEqual({ code: 7, text: "Параметры запроса не в кодировке UTF-8" })
        }
      }
      const page = okOf(yield* send(portNumber, request("vars/list", "json", mainPairs)))
      expect(page.total).toBe(4)
    }).pipe(served))

  it.live(
    `E17 a value longer than ${Variable.maxValueLength} characters is refused with 7 by vars/set, globalVars/set and globalVars/create`,
    () =>
      Effect.gen(function*() {
        const portNumber = yield* port
        const call = (path: string, params: Record<string, unknown>) =>
          send(portNumber, { path: `/external-api/v2/${path}`, headers: bearer, body: JSON.stringify(params) })
        const longest = "я".repeat(Variable.maxValueLength)
        const tooLong = `${longest}!`
        const refusal = { code: 7, text: `Максимальная длина параметра value — ${Variable.maxValueLength} символов` }
        const custom = { var_id: DemoFixture.variableId, uid: DemoFixture.subscriberUid }
        const community = { var_id: DemoFixture.communityVariableId }

        const customValue = okOf(yield* call("vars/get", custom)).value
        const communityValue = okOf(yield* call("globalVars/get", community)).value
        expect(errorOf(yield* call("vars/set", { ...custom, value: tooLong }))).toEqual(refusal)
        expect(okOf(yield* call("vars/get", custom)).value).toBe(customValue)
        expect(errorOf(yield* call("globalVars/set", { ...community, value: tooLong }))).toEqual(refusal)
        expect(okOf(yield* call("globalVars/get", community)).value).toBe(communityValue)
        const created = { ...main, title: "Длинная", name: "long_value" }
        expect(errorOf(yield* call("globalVars/create", { ...created, value: tooLong }))).toEqual(refusal)
        const before = okOf(yield* call("globalVars/list", main)).total as number

        // At the bound, each is taken.
        okOf(yield* call("vars/set", { ...custom, value: longest }))
        expect(okOf(yield* call("vars/get", custom)).value).toBe(longest)
        expect(okOf(yield* call("globalVars/set", { ...community, value: longest })).value).toBe(longest)
        expect(okOf(yield* call("globalVars/create", { ...created, value: longest })).value).toBe(longest)
        expect(okOf(yield* call("globalVars/list", main)).total).toBe(before + 1)
      }).pipe(served)
  )
})
