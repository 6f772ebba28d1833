/**
 * Error 5 covers the request rate (L1) and the creation quota (L2): the client tells them apart
 * (`Retry.refusalOf`). A rate refusal of a creation waits for the rate window and is sent again;
 * only a quota refusal ends as `CreationQuotaExceeded` or waits for the next minute.
 */
import * as Demo from "@community-api/core/DemoData"
import * as Limits from "@community-api/core/Limits"
import { assert, error, failed, ok, quotaRefusal, scenario, succeeded, suite } from "../src/Scenario.js"

const main = { group_id: Demo.mainCommunity.group_id, channel: Demo.mainCommunity.channel }
const creation = { creation: true }
const refusal = (text: string) => ({ code: 5, text, operation: "vars/create" })
const rate = refusal("Слишком много запросов: не более 30 в секунду")
const minute = refusal("Слишком много созданий: не более 20 в минуту")
const day = refusal("Слишком много созданий: не более 200 в сутки")
const silent = refusal("Ошибка")
const hex = (i: number) => i.toString(16).padStart(24, "0")

/** Prints a figure the test measures when `CLIENT_FIGURES=1` (for `docs/reliability.md`). */
const report = (text: string) => {
  if (process.env["CLIENT_FIGURES"] === "1") console.info(`[figure] ${text}`)
}

export default suite("Error 5: the rate or the quota", [
  scenario(
    "L1 L2 X1 the rule: an ordinary request is refused by the rate; a creation by what the text names, else by its own count",
    async (line) => {
      assert.equal(line.refusalOf({ creation: false }, minute), "rate")
      assert.equal(line.refusalOf(creation, rate), "rate")
      assert.equal(line.refusalOf(creation, minute), "minute")
      assert.equal(line.refusalOf(creation, day), "day")
      assert.equal(line.refusalOf(creation, rate, "minute"), "rate")
      assert.equal(line.refusalOf(creation, silent), "rate")
      assert.equal(line.refusalOf(creation, silent, "minute"), "minute")
      assert.equal(line.refusalOf(creation, silent, "day"), "day")
    }
  ),

  scenario(
    "L1 L5 X1 a creation refused by the rate is sent again within the next window and counts once",
    async (line) => {
      const world = await line.scripted(
        (request, i) =>
          i < 2
            ? error(5, rate.text)
            : ok({ id: hex(i), title: "t", name: "v1", create_at: request.at / 1000 | 0 }),
        { quotaPerMinute: 1 }
      )
      const client = await world.client({ onCreationLimit: "fail" })
      const call = client.call("vars/create", { ...main, title: "t", name: "v1" })
      await world.adjust(10_000)
      assert.equal((await succeeded(call) as { readonly name: string }).name, "v1")
      // Each time the margin and a random moment of the next window.
      const sent = world.received.map((r) => r.at)
      assert.equal(sent.length, 3)
      for (const [before, after] of [[sent[0]!, sent[1]!], [sent[1]!, sent[2]!]] as const) {
        assert.ok(after - before >= 20, `${before} → ${after}`)
        assert.ok(after - before < 1020, `${before} → ${after}`)
      }
    }
  ),

  scenario(
    "L2 L4 L5 a creation refused for the day fails at once with the day's reset, even in wait mode",
    async (line) => {
      const world = await line.scripted(() => error(5, day.text))
      const client = await world.client({ onCreationLimit: "wait" })
      quotaRefusal(line, await failed(client.call("vars/create", { ...main, title: "t", name: "v1" })), "day")
      assert.equal(world.received.length, 1)
    }
  ),

  // A reader and a creator of one user with limiters of their own, in fail mode and in wait mode.
  ...(["fail", "wait"] as const).map((mode) =>
    scenario(
      "L1 L2 L5 X1 zero false CreationQuotaExceeded, and no creation held by rate refusals more than a few windows",
      async (line) => {
        const world = await line.reference({
          // A network: every request reaches the server 5 to 60 ms after it is sent.
          faults: { latency: { min: 5, max: 60, seed: 12 } },
          randomSeed: "rate-or-quota"
        })
        // Two processes of one user, as far as the limiters know: nothing shared.
        const reader = await world.client({ limiters: "own" })
        const creator = await world.client({ limiters: "own", onCreationLimit: mode })
        let done = false
        // The reader reads at its full pace from two fibers until the creator is done.
        const reading = Array.from({ length: 2 }, () => reader.serial("users/me", { times: 3_000, while: () => !done }))
        // 8 creations, one every 3 s or more: 20 a minute at most, within the quota.
        const creating = creator.serial("vars/create", {
          times: 8,
          params: (i) => ({ ...main, title: `Переменная ${i}`, name: `shared_${i}` }),
          pauseMillis: 3000
        })
        let created = false
        void creating.then(() => (created = true))
        for (let step = 0; step < 300 && !created; step++) await world.adjust(1000)
        const elapsed = await world.now()
        done = true
        await world.adjust(5000)
        const readings = (await Promise.all(reading.map((r) => succeeded(r)))).flat()
        // A read may fail (it is ignored), never die.
        for (const r of readings) assert.ok(r._tag === "Success" || r._tag === "Failure", r._tag)
        const reads = readings.filter((r) => r._tag === "Success").length
        const creations = await succeeded(creating)
        const refusedCreations = world.answered.filter((a) => a.path.endsWith("/vars/create") && a.outcome === 5).length
        // The reader took nearly the whole rate, and the rate refused some creations.
        assert.ok(reads / (elapsed / 1000) > 20, `${reads} reads in ${elapsed} ms`)
        assert.ok(refusedCreations > 0)
        // None failed (no false CreationQuotaExceeded, no RateLimitError), none waited for a minute.
        assert.deepEqual(
          creations.flatMap((c) => c._tag === "Success" ? [] : [c._tag === "Failure" ? c.error._tag : c._tag]),
          []
        )
        const held = creations.map((c) => c.at - c.startedAt).sort((a, b) => a - b)
        report(
          `${mode} mode: reader ${(reads / (elapsed / 1000)).toFixed(1)}/s, ${refusedCreations} rate refusals of ` +
            `creations, held ${held.join(", ")} ms`
        )
        assert.ok(Math.max(...held) <= 3 * Limits.rateWindowMillis, `held ${held.join(", ")}`)
        const shared = (await world.server.snapshot()).variables.filter((v) => v.name.startsWith("shared_"))
        assert.equal(shared.length, 8)
      },
      60_000
    )
  )
])
