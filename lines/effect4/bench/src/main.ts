/**
 * The Effect 4 line's runner of the benchmarks' lines comparison (see the bench's `internal/Lines.ts`):
 * started by `pnpm bench lines` on Node 22 as `main.ts --lines-out FILE B1`, it runs one benchmark
 * and writes its result to `FILE`.
 */
import * as Lines from "@community-api/bench/Lines"
import type { Result } from "@community-api/bench/Result"
import { Effect } from "effect"
import * as B1 from "./B1ClientOverhead.js"
import * as B2 from "./B2Pacing.js"
import * as B3 from "./B3Pagination.js"

const benchmarks: Record<
  Lines.Benchmark,
  (entry: { readonly id: string; readonly title: string }) => Effect.Effect<Result, unknown>
> = {
  B1: B1.run,
  B2: B2.run,
  B3: B3.run
}

const args = Lines.runnerArgs(process.argv.slice(2))
if (args === undefined) throw new Error(`run by the bench's \`pnpm bench lines\` (${Lines.outFlag} FILE B1|B2|B3)`)
Effect.runPromise(benchmarks[args.benchmark](Lines.entryOf(args.benchmark, "effect4"))).then(
  (result) => {
    Lines.writeResult(args.out, "effect4", result)
    process.exit(0)
  },
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`)
    process.exit(1)
  }
)
