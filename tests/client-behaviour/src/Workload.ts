/**
 * Plain helpers of scenarios that run many calls at once on a world's clock: a bounded pool of calls,
 * and a clock moved until the work is done.
 */
import assert from "node:assert/strict"
import type { World } from "./Driver.js"

/** Waits for `work`, moving the world's clock a second at a time until it is done. */
export const drive = async <A>(world: World, work: Promise<A>, maxSeconds = 3600): Promise<A> => {
  let done = false
  const settled = work.finally(() => (done = true))
  settled.catch(() => {})
  for (let second = 0; !done; second++) {
    if (second === maxSeconds) assert.fail(`not done within ${maxSeconds} simulated seconds`)
    await world.adjust(1_000)
  }
  return settled
}

/** `f` of every index below `count`, at most `concurrency` at a time, the results in order. */
export const forEach = async <A>(
  count: number,
  concurrency: number,
  f: (i: number) => Promise<A>
): Promise<Array<A>> => {
  const results: Array<A> = []
  let next = 0
  const worker = async () => {
    while (next < count) {
      const i = next++
      results[i] = await f(i)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return results
}
