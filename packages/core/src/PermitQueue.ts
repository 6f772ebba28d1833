/**
 * The permits of one user in one process and the calls waiting for one, by lane: a permit given back
 * goes straight to the first interactive waiter, else to the first batch waiter, else it is free.
 * Each waiter is woken alone (no wake-up of every waiter to race for one permit, which is what a
 * semaphore over thousands of queued calls costs), and within a lane first come, first served.
 *
 * The queue holds the waiters as its owner makes them (a line's deferred value); it only decides who
 * gets the next permit.
 *
 * @since 0.1.0
 */
import type { Lane } from "./Lane.js"

/** One lane's waiters: an array with a moving head, so that taking the first is not a copy. */
interface Line<W> {
  items: Array<W | undefined>
  head: number
  size: number
}

const emptyLine = <W>(): Line<W> => ({ items: [], head: 0, size: 0 })

const push = <W>(line: Line<W>, waiter: W) => {
  line.items.push(waiter)
  line.size++
}

const shift = <W>(line: Line<W>): W | undefined => {
  while (line.head < line.items.length) {
    const waiter = line.items[line.head]
    line.items[line.head++] = undefined
    if (waiter !== undefined) {
      line.size--
      compact(line)
      return waiter
    }
  }
  return undefined
}

/** Drops the taken head of the array once it is most of it, so that a long-lived line does not grow. */
const compact = <W>(line: Line<W>) => {
  if (line.size === 0) {
    line.items = []
    line.head = 0
  } else if (line.head > 64 && line.head * 2 > line.items.length) {
    line.items = line.items.slice(line.head)
    line.head = 0
  }
}

/**
 * One user's permits in this process and its waiters by lane.
 *
 * @since 0.1.0
 * @category models
 */
export interface PermitQueue<W> {
  /**
   * Takes a free permit for a call of `lane` when none of its lane or a lane before it waits ahead
   * (`true`); otherwise queues `waiter` last of its lane (`false`), to be handed a permit by
   * {@link PermitQueue.give}.
   */
  readonly take: (lane: Lane, waiter: W) => boolean
  /** A permit is back: the waiter it goes to (now removed from the queue), or none, and it is free. */
  readonly give: () => W | undefined
  /** Removes a waiter that stopped waiting; `false` when it was not queued (it was handed a permit). */
  readonly remove: (lane: Lane, waiter: W) => boolean
  /** The free permits. */
  readonly free: () => number
  /** The waiters of `lane`, or of every lane. */
  readonly waiting: (lane?: Lane) => number
}

/**
 * A queue of `limit` free permits and no waiter.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <W>(limit: number): PermitQueue<W> => {
  let free = limit
  const interactive = emptyLine<W>()
  const batch = emptyLine<W>()
  const lineOf = (lane: Lane) => lane === "interactive" ? interactive : batch
  return {
    take: (lane, waiter) => {
      // A free permit means no one waits (a permit given back goes to a waiter first).
      if (free > 0) {
        free--
        return true
      }
      push(lineOf(lane), waiter)
      return false
    },
    give: () => {
      const next = shift(interactive) ?? shift(batch)
      if (next === undefined) free++
      return next
    },
    remove: (lane, waiter) => {
      const line = lineOf(lane)
      const index = line.items.indexOf(waiter, line.head)
      if (index < 0) return false
      line.items[index] = undefined
      line.size--
      compact(line)
      return true
    },
    free: () => free,
    waiting: (lane) => lane === undefined ? interactive.size + batch.size : lineOf(lane).size
  }
}
