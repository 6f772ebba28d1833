/**
 * A CPU profile of part of B9's client process, through the inspector of the process itself, for a
 * diagnostic run (`BENCH_B9_PROFILE`): only the point asked for is profiled, not the start-up.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import { Session } from "node:inspector"

/** A running profile. */
export interface Running {
  /** Stops the profile and writes it to `file` (a `.cpuprofile`, as `--cpu-prof` writes). */
  readonly stop: (file: string) => Effect.Effect<void>
}

const post = (session: Session, method: string) =>
  Effect.async<unknown>((resume) => {
    session.post(method, (error, result) => resume(error === null ? Effect.succeed(result) : Effect.die(error)))
  })

/** Starts profiling this process's main thread. */
export const start: Effect.Effect<Running> = Effect.gen(function*() {
  const session = new Session()
  session.connect()
  yield* post(session, "Profiler.enable")
  yield* post(session, "Profiler.start")
  return {
    stop: (file) =>
      Effect.map(post(session, "Profiler.stop"), (result) => {
        fs.writeFileSync(file, JSON.stringify((result as { readonly profile: unknown }).profile))
        session.disconnect()
      })
  }
})
