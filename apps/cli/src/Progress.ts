/**
 * A one-line progress bar on standard error for `--all` and `record`: items (or reads) so far of
 * `total`, and the rate. It is drawn only when standard error is a terminal, and erased when the
 * stream ends.
 *
 * @since 0.1.0
 */
import { Clock, Effect } from "effect"

/**
 * A progress bar.
 *
 * @since 0.1.0
 */
export interface Progress {
  /** Tells that `count` items of `total` have arrived. */
  readonly update: (count: number, total: number) => Effect.Effect<void>
  /** Erases the bar. */
  readonly clear: Effect.Effect<void>
}

/**
 * Where the bar is drawn.
 *
 * @since 0.1.0
 */
export interface Sink {
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
  readonly write: (text: string) => unknown
}

const width = 24

/**
 * The text of the bar: `[#####-----] 500/1234 items  830/s` (`unit` in place of `items`).
 *
 * @since 0.1.0
 */
export const render = (count: number, total: number, elapsedMillis: number, unit = "items"): string => {
  const ratio = total > 0 ? Math.min(1, count / total) : 1
  const filled = Math.round(ratio * width)
  const rate = elapsedMillis > 0 ? Math.round((count * 1000) / elapsedMillis) : 0
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${count}/${total} ${unit}  ${rate}/s`
}

/**
 * A bar on `sink` counting `unit` (default `items`), or one that draws nothing when `sink` is not a
 * terminal.
 *
 * @since 0.1.0
 */
export const make = (sink: Sink, unit?: string): Effect.Effect<Progress> =>
  Effect.map(Clock.currentTimeMillis, (start) => {
    if (sink.isTTY !== true) return { update: () => Effect.void, clear: Effect.void }
    let drawn = false
    return {
      update: (count, total) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          drawn = true
          sink.write(`\r\x1b[2K${render(count, total, now - start, unit)}`)
        }),
      clear: Effect.sync(() => {
        if (drawn) sink.write("\r\x1b[2K")
      })
    }
  })
