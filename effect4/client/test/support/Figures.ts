/**
 * Figures a test measures (memory growth, delays), printed only when `CLIENT_FIGURES=1`, so that
 * `docs/reliability.md` can be brought up to date with one command:
 *
 *     CLIENT_FIGURES=1 npx vitest run test/HostileBodies.test.ts test/RateOrQuota.test.ts
 */
import { Effect } from "effect"

/** Prints `text` when figures are asked for. */
export const report = (text: string): Effect.Effect<void> =>
  Effect.sync(() => {
    if (process.env["CLIENT_FIGURES"] === "1") console.info(`[figure] ${text}`)
  })
