/**
 * The Effect 3 line's runner of the lines comparison (see `internal/Lines.ts`): started by `pnpm
 * bench lines` on Node 22 as `linesRunner.ts --lines-out FILE B1`, it runs one benchmark and writes
 * its result to `FILE`. It loads only B1–B3, as the Effect 4 line's runner (`lines/effect4/bench`) does, so
 * that neither process carries modules the other does not.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect } from "effect"
import * as B1 from "./B1ClientOverhead.js"
import * as B2 from "./B2Pacing.js"
import * as B3 from "./B3Pagination.js"
import * as Lines from "./internal/Lines.js"
import type { Result } from "./internal/Result.js"

const benchmarks: Record<
  Lines.Benchmark,
  (entry: { readonly id: string; readonly title: string }) => Effect.Effect<Result, unknown>
> = {
  B1: B1.runAs,
  B2: B2.runLines,
  B3: B3.runAs
}

const args = Lines.runnerArgs(process.argv.slice(2))
if (args === undefined) throw new Error(`run by \`pnpm bench lines\` (${Lines.outFlag} FILE B1|B2|B3)`)
NodeRuntime.runMain(
  Effect.map(
    benchmarks[args.benchmark](Lines.entryOf(args.benchmark, "effect3")),
    (result) => Lines.writeResult(args.out, "effect3", result)
  )
)
