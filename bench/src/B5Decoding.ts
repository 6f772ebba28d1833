/**
 * B5 decoding: items per second decoded from a 500-item `bots/get` page (the body the reference server
 * sends) by the client's decoder (`JSON.parse` then the contract's envelope schema, as the client does)
 * against `JSON.parse` alone, in alternated rounds.
 */
import { Envelope, Operations } from "@community-api/schema"
import { Effect } from "effect"
import { performance } from "node:perf_hooks"
import * as BenchFixture from "./internal/BenchFixture.js"
import type { Result } from "./internal/Result.js"
import * as Servers from "./internal/Servers.js"
import { median, round } from "./internal/Stats.js"

const rounds = 6
const roundMillis = 400

/** Runs `f` for about `millis` and gives calls per second. */
const callsPerSecond = (f: () => void, millis: number): number => {
  let calls = 0
  const started = performance.now()
  let elapsed = 0
  while (elapsed < millis) {
    for (let i = 0; i < 10; i++) f()
    calls += 10
    elapsed = performance.now() - started
  }
  return (calls / elapsed) * 1000
}

/** Runs B5. */
export const run: Effect.Effect<Result, unknown> = Effect.scoped(Effect.gen(function*() {
  const bench = BenchFixture.make({ bots: 500 })
  const server = yield* Servers.reference(bench.fixture)
  const text = yield* Effect.promise(() =>
    fetch(`${server.baseUrl}/bots/get`, {
      method: "POST",
      headers: { authorization: `Bearer ${bench.ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ ...BenchFixture.community, count: 500 })
    }).then((response) => response.text())
  )
  const decode = Envelope.decode(Operations.bots.get)
  const items = Effect.runSync(decode(JSON.parse(text))).items.length
  const parseOnly: Array<number> = []
  const decoded: Array<number> = []
  for (let i = 0; i < rounds; i++) {
    parseOnly.push(callsPerSecond(() => JSON.parse(text), roundMillis) * items)
    decoded.push(callsPerSecond(() => Effect.runSync(decode(JSON.parse(text))), roundMillis) * items)
  }
  const parse = median(parseOnly)
  const full = median(decoded)
  return {
    id: "B5",
    title: "Decoding",
    method: `A ${items}-item bots/get body from the reference server, decoded ${rounds} alternated rounds of ` +
      `${roundMillis} ms each: JSON.parse alone vs JSON.parse + the contract's envelope decoder (Envelope.decode, ` +
      "as the client runs it); median items per second.",
    figures: {
      itemsPerPage: items,
      bodyBytes: Buffer.byteLength(text),
      jsonParseItemsPerSecond: Math.round(parse),
      decodeItemsPerSecond: Math.round(full),
      decodeOverParse: round(full / parse, 3),
      decodeMsPerPage: round((items / full) * 1000, 3),
      jsonParseMsPerPage: round((items / parse) * 1000, 3)
    },
    target: "none (reported for comparison)",
    met: null,
    headline: `${Math.round(full).toLocaleString("en")} items/s decoded vs ${
      Math.round(parse).toLocaleString("en")
    } with JSON.parse alone (${round(full / parse, 3)}×)`
  }
}))
