/**
 * The reference server in a child process, driven over IPC: the Effect 3 sandbox (`serverProcess.ts`)
 * serving a generated fixture on a loopback port, with controls as promises (reset, faults, the request
 * log). Plain TypeScript, no Effect: both lines' benchmarks drive the same server through it, the
 * Effect 3 line's through `Servers.spawnReference`, the Effect 4 line's from its own process.
 */
import { fork } from "node:child_process"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import type * as BenchFixture from "./BenchFixture.js"

/** Now in milliseconds since the epoch, with sub-millisecond precision, comparable across processes. */
export const now = (): number => performance.timeOrigin + performance.now()

/** One request as the server logged it, stamped with {@link now} when it was answered. */
export interface Recorded {
  readonly at: number
  readonly path: string
  readonly outcome: number | "ok" | "dropped"
  /** Milliseconds the server took (its own measure). */
  readonly millis: number
}

/**
 * Faults of the server as JSON (the server's `Faults.FaultSettings`, decoded by the child): the
 * benchmarks use only its latency.
 */
export interface FaultSettings {
  readonly latency?:
    | { readonly fixed: number }
    | { readonly min: number; readonly max: number; readonly seed: number }
    | undefined
}

/** A command to the child process. */
export type Command =
  | { readonly id: number; readonly command: "reset" | "start" | "stop" }
  | { readonly id: number; readonly command: "faults"; readonly faults: FaultSettings }

/** The child's messages. */
export type Message =
  | { readonly _tag: "ready"; readonly origin: string }
  | { readonly _tag: "done"; readonly id: number; readonly entries?: ReadonlyArray<Recorded> }

/** The controls of a running server. */
export interface Controls {
  /** `http://127.0.0.1:PORT`. */
  readonly origin: string
  /** `{origin}/external-api/v2`. */
  readonly baseUrl: string
  /** Back to the fixture: state, rate windows, token cache (and no faults). */
  readonly reset: () => Promise<void>
  /** Replaces the fault settings (latency, for B2). */
  readonly setFaults: (faults: FaultSettings) => Promise<void>
  /** Clears the request log and starts recording. */
  readonly startRecording: () => Promise<void>
  /** Stops recording and gives the log. */
  readonly stopRecording: () => Promise<ReadonlyArray<Recorded>>
  /** Ends the child process. */
  readonly close: () => void
}

/**
 * Starts the server with a generated fixture in a child process (built there, so the 100,000-bot
 * fixture never touches this heap) on the Node running this process, through `tsx`.
 */
export const spawn = (options: BenchFixture.Options): Promise<Controls> => {
  const child = fork(fileURLToPath(new URL("./serverProcess.ts", import.meta.url)), [], {
    execArgv: ["--import", import.meta.resolve("tsx")],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  let nextId = 0
  const waiting = new Map<number, (entries: ReadonlyArray<Recorded>) => void>()
  const ask = (command: (id: number) => Command) =>
    new Promise<ReadonlyArray<Recorded>>((resolve) => {
      const id = nextId++
      waiting.set(id, (entries) => {
        waiting.delete(id)
        resolve(entries)
      })
      child.send(command(id))
    })
  const plain = (command: "reset" | "start" | "stop") => ask((id) => ({ id, command }))
  return new Promise((resolve, reject) => {
    child.on("message", (message: Message) => {
      if (message._tag === "ready") {
        resolve({
          origin: message.origin,
          baseUrl: `${message.origin}/external-api/v2`,
          reset: () => plain("reset").then(() => undefined),
          setFaults: (faults) => ask((id) => ({ id, command: "faults", faults })).then(() => undefined),
          startRecording: () => plain("start").then(() => undefined),
          stopRecording: () => plain("stop"),
          close: () => {
            child.kill()
          }
        })
      } else {
        waiting.get(message.id)?.(message.entries ?? [])
      }
    })
    child.once("exit", (code) => reject(new Error(`the server process exited with ${code}`)))
    child.send(options)
  })
}
