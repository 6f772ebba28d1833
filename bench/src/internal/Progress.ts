/**
 * Progress lines on stderr, so that stdout carries only the table.
 */
import { Effect } from "effect"

/** Writes one progress line. */
export const line = (text: string): Effect.Effect<void> =>
  Effect.sync(() => {
    process.stderr.write(`[bench] ${text}\n`)
  })
