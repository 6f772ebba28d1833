/**
 * A list of bots as `bots/get` answers it, for the scenarios of paging against a scripted server: the
 * records as they come on the wire, and the page a request asks for.
 */
import type { Received, Reply } from "./Driver.js"
import { ok } from "./Scenario.js"

/** Bot `n` as the API sends it: its id is `n` in hex, created `n` seconds after a fixed instant. */
export const bot = (n: number) => ({
  id: n.toString(16).padStart(24, "0"),
  name: `Бот ${n}`,
  group_id: 1,
  channel: "VK",
  active: 1,
  archived: 0,
  activity_type: "subscribe",
  create_at: 1_700_000_000 + n
})

/** A bot as the API sends it. */
export type Bot = ReturnType<typeof bot>

/** Bots `n` down to 1: newest first, as the API lists them. */
export const newestFirst = (n: number): Array<Bot> => Array.from({ length: n }, (_, i) => bot(n - i))

/** Where a request asks for its page, with the API's defaults: 100 from offset 0, at most 500. */
export const positionOf = (request: Received) => ({
  offset: Number(request.body["offset"] ?? 0),
  count: Math.min(Number(request.body["count"] ?? 100), 500)
})

/** The answer of the page of `bots` that `request` asks for, with the total. */
export const page = (bots: ReadonlyArray<Bot>, request: Received): Reply => {
  const { count, offset } = positionOf(request)
  return ok({ items: bots.slice(offset, offset + count), total: bots.length })
}
