/**
 * Heap measurements: a full garbage collection before a reading, so that retained memory is compared,
 * not whatever garbage happens to be waiting.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

const collect: () => void = (() => {
  const exposed = (globalThis as { gc?: () => void }).gc
  if (exposed !== undefined) return exposed
  // `--expose-gc` set at run time gives a `gc` function to new contexts.
  setFlagsFromString("--expose-gc")
  return runInNewContext("gc") as () => void
})()

/** A reading of the process's memory, in MiB. */
export interface Reading {
  readonly rssMiB: number
  readonly heapUsedMiB: number
}

const mib = (bytes: number) => bytes / (1024 * 1024)

/** Reads memory without collecting (cheap, for sampling). */
export const read = (): Reading => {
  const usage = process.memoryUsage()
  return { rssMiB: mib(usage.rss), heapUsedMiB: mib(usage.heapUsed) }
}

/** Collects garbage fully, then reads memory (retained memory). */
export const readRetained = (): Reading => {
  collect()
  collect()
  return read()
}
