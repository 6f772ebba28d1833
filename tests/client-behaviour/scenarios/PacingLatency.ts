/**
 * Pacing at real latency: the rule that holds a permit (`@community-api/core/PacingRule`) learns the band of
 * the delays and holds a permit a window past its take plus the band's spread, instead of a window past
 * its answer; outside what it has seen it falls back to the safe rule. Driven on the test clock against
 * the reference server in process, whose latency comes before it counts a request (so the whole delay
 * is on the way there, the worst case for pacing), with the server's own answers as the ground truth.
 */
import * as PacingRule from "@community-api/core/PacingRule"
import type { Call, Ended, Line, ReferenceWorld } from "../src/Driver.js"
import { assert, me, ok, scenario, succeeded, suite, wait } from "../src/Scenario.js"

const settings = { limit: 30, windowMillis: 1000, marginMillis: 20 }
const safeHold = settings.windowMillis + settings.marginMillis
const fibers = 16

/** One answer of the server: when it left (the instant it was counted: nothing is slower after) and its code. */
interface Answered {
  readonly at: number
  readonly outcome: number | "ok" | "dropped"
}

/** `fibers` fibers of one user calling `users/me` until `untilMillis` on the clock. */
const load = async (world: ReferenceWorld, untilMillis: number) => {
  const client = await world.client()
  return Array.from({ length: fibers }, () => client.serial("users/me", { while: (now) => now < untilMillis }))
}

/** Every call of every fiber ended ok. */
const allOk = async (loops: ReadonlyArray<Call<ReadonlyArray<Ended>>>) => {
  for (const loop of loops) {
    for (const one of await succeeded(loop)) assert.equal(one._tag, "Success", JSON.stringify(one))
  }
}

/** The ok answers as the server's window sees them: no 31 inside any 1000 ms. */
const expectWithinTheWindow = (answers: ReadonlyArray<Answered>) => {
  const ok = answers.filter((a) => a.outcome === "ok").map((a) => a.at).sort((a, b) => a - b)
  ok.forEach((at, i) => {
    if (i >= settings.limit) assert.ok(at - ok[i - settings.limit]! >= settings.windowMillis, `answer ${i} at ${at}`)
  })
  return ok
}

const errors5 = (answers: ReadonlyArray<Answered>) => answers.filter((a) => a.outcome === 5)

/**
 * The bound on a hang of a simulated load: seconds of test clock time are hundreds of requests through
 * the server in process, whose computation takes wall time in proportion, several times more on a busy
 * two-core machine (and on Effect 4 thousands of turns of the event loop, see `ReferenceWorld.advance`).
 * No assertion depends on it.
 */
const simulation = 180_000

/**
 * One user's requests one after another through a pacing of `pacingHold`, one permit a window, each
 * answered 100 ms after it is sent: the gaps between the sends, a few more than the rule needs to trust
 * its band. The clock stops at each answer and lets the event loop turn there, so that each answer is
 * read when it is made (Effect 4 reads an answer's body through promises, outside the clock's fibers);
 * a request sent within a step is answered after it, since no step is longer than the delay.
 */
const steadyGaps = async (line: Line, pacingHold?: "safe") => {
  const world = await line.scripted(() => wait(100, ok(me)), {
    pacingLimit: 1,
    ...(pacingHold === undefined ? {} : { pacingHold })
  })
  const client = await world.client()
  const calls = client.serial("users/me", { times: PacingRule.observationsBeforeTrust + 3 })
  let done = false
  void calls.then(() => (done = true))
  for (let step = 0; step < 10_000 && !done; step++) {
    const now = await world.now()
    const answerAt = (world.received.at(-1)?.at ?? -Infinity) + 100
    await world.adjust(answerAt > now ? answerAt - now : 100)
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
  await allOk([calls])
  const sends = world.received.map((r) => r.at)
  return sends.slice(1).map((at, i) => at - sends[i]!)
}

export default suite("Pacing at real latency", [
  scenario("L1 holds a window plus the margin after the answer until it has seen enough answers", async () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
      assert.deepEqual(rule.holdAfter(100 + (i % 3)), { afterAnswerMillis: safeHold, afterTakeMillis: 0 })
    }
  }),

  scenario("L1 inside the band a permit is held a window, the margin and the spread past its take", async () => {
    const rule = PacingRule.make(settings)
    // Held times 100 to 110 ms: a spread of 10.
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100 + (i % 11))
    for (const held of [100, 104, 110]) {
      const hold = rule.holdAfter(held)
      assert.equal(hold.afterTakeMillis, 0)
      // From the take: the held time, then the hold after the answer.
      assert.equal(held + hold.afterAnswerMillis, safeHold + 10)
    }
    // A held time shorter than the spread is held by the safe rule (the delay there is at most the held time).
    const narrow = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) narrow.holdAfter(5 + (i % 2) * 40)
    assert.equal(narrow.holdAfter(20).afterAnswerMillis, safeHold)
    assert.equal(narrow.holdAfter(45).afterAnswerMillis, safeHold - 5)
  }),

  scenario("L1 outside the band the safe rule holds, and the answer widens the band", async () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100 + (i % 11))
    assert.equal(rule.holdAfter(150).afterAnswerMillis, safeHold)
    assert.equal(rule.holdAfter(60).afterAnswerMillis, safeHold)
    // The band is now 60..150: a spread of 90.
    assert.equal(rule.holdAfter(140).afterAnswerMillis, safeHold - 50)
  }),

  scenario("L1 after a refusal nothing learnt is trusted until the band is learnt again", async () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100)
    assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold - 100)
    rule.refused()
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) {
      assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold)
    }
    assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold - 100)
  }),

  scenario("L1 a slow answer widens the band only while it is among the last answers", async () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i < PacingRule.observationsBeforeTrust; i++) rule.holdAfter(100)
    assert.equal(rule.holdAfter(400).afterAnswerMillis, safeHold)
    // 100..400: a spread of 300, more than the held time: the safe rule.
    assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold)
    for (let i = 0; i < PacingRule.bandSize - 2; i++) rule.holdAfter(100)
    // The slow one is the oldest of the band: still in it.
    assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold)
    assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold - 100)
  }),

  scenario("L1 the hold is never before the answer, however slow a steady service is", async () => {
    const rule = PacingRule.make(settings)
    for (let i = 0; i <= PacingRule.observationsBeforeTrust; i++) rule.holdAfter(3000)
    assert.deepEqual(rule.holdAfter(3000), { afterAnswerMillis: 0, afterTakeMillis: 0 })
  }),

  scenario("L1 today's rule holds every permit a window plus the margin after its answer", async () => {
    const rule = PacingRule.safe(settings)
    for (let i = 0; i < 100; i++) assert.equal(rule.holdAfter(100).afterAnswerMillis, safeHold)
  }),

  scenario("L1 with a steady delay a permit comes back a window plus the margin after its take", async (line) => {
    const gaps = await steadyGaps(line)
    // Learning: the answer (100 ms) plus the safe hold; then the take plus the window and the margin.
    assert.deepEqual(
      gaps.slice(0, PacingRule.observationsBeforeTrust),
      Array.from({ length: PacingRule.observationsBeforeTrust }, () => 100 + safeHold)
    )
    assert.deepEqual(gaps.slice(PacingRule.observationsBeforeTrust), [safeHold, safeHold])
  }),

  scenario(
    "L1 with hold \"safe\" a permit always comes back a window plus the margin after its answer",
    async (line) => {
      const gaps = await steadyGaps(line, "safe")
      assert.deepEqual(gaps, Array.from({ length: PacingRule.observationsBeforeTrust + 2 }, () => 100 + safeHold))
    }
  ),

  ...[
    { name: "a service 100 ms away, ±5 ms", min: 95, max: 105 },
    { name: "25–75 ms", min: 25, max: 75 },
    { name: "0–300 ms", min: 0, max: 300 }
  ].map(({ max, min, name }) =>
    scenario(`L1 ${name} before the server counts: zero error 5 and no 31 in any window`, async (line) => {
      const world = await line.reference({ faults: { latency: { min, max, seed: 20261123 } } })
      const seconds = 15
      const loops = await load(world, seconds * 1000)
      await world.advance((seconds + 5) * 1000)
      await allOk(loops)
      assert.deepEqual(errors5(world.answered), [])
      const ok = expectWithinTheWindow(world.answered)
      assert.ok(ok.length > seconds * 25, `${ok.length} ok`)
      if (max - min < settings.marginMillis) {
        // Once the band is learnt, 30 requests take a window and the spread (once from take to take, once
        // more from send to arrival), not a window and the delay: the safe rule cannot go faster than one
        // window, the margin and the shortest delay.
        const learnt = ok.filter((at) => at >= 3000)
        const paces = learnt.slice(settings.limit).map((at, i) => at - learnt[i]!)
        assert.ok(Math.max(...paces) <= safeHold + 2 * (max - min))
        assert.ok(Math.max(...paces) < safeHold + min)
      }
    }, simulation)
  ),

  scenario(
    "L1 delays that rise past the band: the slower answers are held by the safe rule, zero error 5",
    async (line) => {
      const world = await line.reference({ faults: { latency: { fixed: 50 } } })
      const loops = await load(world, 20_000)
      await world.advance(8000)
      await world.server.setFaults({ latency: { fixed: 300 } })
      await world.advance(4000)
      await world.server.setFaults({ latency: { min: 300, max: 600, seed: 7 } })
      await world.advance(15_000)
      await allOk(loops)
      assert.deepEqual(errors5(world.answered), [])
      expectWithinTheWindow(world.answered)
    },
    simulation
  ),

  scenario(
    "L1 delays that fall past the band and the margin: the refusals come in the first window after the fall, then none",
    async (line) => {
      const world = await line.reference({ faults: { latency: { fixed: 300 } } })
      const loops = await load(world, 20_000)
      await world.advance(8000)
      const fellAt = await world.now()
      await world.server.clearFaults()
      await world.advance(15_000)
      // Every call ended ok: a refused request waited for the window and was sent again.
      await allOk(loops)
      const refused = errors5(world.answered)
      // Only requests already on their way when the first refusal came back: at most one per fiber.
      assert.ok(refused.length > 0)
      assert.ok(refused.length <= fibers)
      for (const r of refused) assert.ok(r.at - fellAt < settings.windowMillis)
      expectWithinTheWindow(world.answered)
    },
    simulation
  )
])
