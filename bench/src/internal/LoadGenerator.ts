/**
 * A keep-alive HTTP load generator in a child process (its own event loop and heap, the second core),
 * the same for every server it is pointed at; and the `users/me` load that B4 and B7 put on the
 * servers they compare, in rounds alternated between them.
 */
import { Duration, Effect } from "effect"
import { fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { Job, Report } from "./loadWorker.js"

export type { Job, Report }

/** Runs `job` in a fresh child process and gives its report. */
export const run = (job: Job): Effect.Effect<Report> =>
  Effect.async<Report>((resume) => {
    // The child is TypeScript too: load it through `tsx`'s loader.
    const child = fork(fileURLToPath(new URL("./loadWorker.ts", import.meta.url)), [], {
      execArgv: ["--import", import.meta.resolve("tsx")],
      stdio: ["ignore", "inherit", "inherit", "ipc"]
    })
    child.once("message", (report) => resume(Effect.succeed(report as Report)))
    child.once("error", (error) => resume(Effect.die(error)))
    child.send(job)
    return Effect.sync(() => child.kill())
  })

/**
 * The `users/me` load of B4 and B7: tokens of 1,000 users round-robin (30 requests a second each is
 * far more than any server here answers one user, so the rate limit never answers instead of the
 * operation), over keep-alive connections, in alternated rounds with a warm-up each.
 */
export const usersMe = {
  users: 1000,
  connections: 16,
  rounds: 2,
  warmupMillis: 1000,
  durationMillis: 4000
} as const

/** {@link usersMe} in words, for the method of a result. */
export const usersMeMethod = `users/me over ${usersMe.connections} keep-alive connections from a load generator ` +
  `in a child process, ${usersMe.rounds} alternated rounds of ${usersMe.durationMillis / 1000} s (after ${
    usersMe.warmupMillis / 1000
  } s warm-up) per server, tokens of ${usersMe.users} users round-robin`

/** A server that {@link rounds} loads: where it answers `users/me`. */
export interface Side {
  readonly origin: string
  readonly path: string
}

/** What {@link rounds} measured of one side, a figure per round. */
export interface Measured {
  /** Answers per second. */
  readonly completedPerSecond: Array<number>
  /** Answers with `"status":"ok"` per second. */
  readonly okPerSecond: Array<number>
  /** Answers that were not ok, over every round. */
  readonly notOk: number
  /** Transport failures, over every round. */
  readonly failures: number
}

/**
 * The {@link usersMe} load on every side with `tokens`, round after round: each round runs
 * `beforeRound`, then each side in turn, with a pause of 100 ms after each, so that no side has the
 * machine to itself while another is measured. The figures of each side, in the order of `sides`.
 */
export const rounds = (
  sides: ReadonlyArray<Side>,
  tokens: ReadonlyArray<string>,
  beforeRound: Effect.Effect<void> = Effect.void
): Effect.Effect<ReadonlyArray<Measured>> =>
  Effect.gen(function*() {
    const measured = sides.map((): { -readonly [K in keyof Measured]: Measured[K] } => ({
      completedPerSecond: [],
      okPerSecond: [],
      notOk: 0,
      failures: 0
    }))
    for (let i = 0; i < usersMe.rounds; i++) {
      yield* beforeRound
      for (const [index, side] of sides.entries()) {
        const report = yield* run({
          origin: side.origin,
          path: side.path,
          tokens,
          body: "{}",
          connections: usersMe.connections,
          warmupMillis: usersMe.warmupMillis,
          durationMillis: usersMe.durationMillis
        })
        const figures = measured[index]!
        figures.completedPerSecond.push((report.completed / report.elapsedMillis) * 1000)
        figures.okPerSecond.push((report.ok / report.elapsedMillis) * 1000)
        figures.notOk += report.completed - report.ok
        figures.failures += report.failures
        yield* Effect.sleep(Duration.millis(100))
      }
    }
    return measured
  })

/** One answer of a server to the load's request (a POST of `{}` with `token`): its status and body. */
export const sample = (url: string, token: string): Effect.Effect<{ readonly status: number; readonly body: string }> =>
  Effect.promise(() =>
    fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: "{}"
    }).then(async (response) => ({ status: response.status, body: await response.text() }))
  )
