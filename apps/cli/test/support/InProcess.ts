/**
 * The executable's program (`Cli.main`, what `bin.ts` runs) run in this process, as a child process
 * would run it but without starting Node and tsx again: standard output and error are captured, the
 * environment is the one given (nothing is read from `process.env`), standard input is the text given
 * and ends, and the exit code is what the executable would exit with. The program runs on the clock
 * of the fiber that starts it: under `it.effect`, the test clock.
 */
import * as CreationQuota from "@community-api/client/CreationQuota"
import * as Pacing from "@community-api/client/Pacing"
import { NodeContext } from "@effect/platform-node"
import { ConfigProvider, Console, Effect, Exit, Fiber, Layer } from "effect"
import { Console as NodeConsole } from "node:console"
import { Readable, Writable } from "node:stream"
import * as Cli from "../../src/Cli.js"
import { Stdio } from "../../src/Stdio.js"
import type { Result, RunOptions } from "./Outcome.js"

/**
 * A stream that keeps what is written to it: not a terminal, like the pipe of a child process, unless
 * `terminal` says it stands for one (of `columns` when given).
 */
const recorder = (terminal = false, columns?: number) => {
  let text = ""
  const listeners = new Set<() => void>()
  const append = (more: string) => {
    text += more
    for (const listener of listeners) listener()
  }
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      append(chunk.toString())
      done()
    }
  })
  return {
    stream,
    sink: { isTTY: terminal, ...(columns === undefined ? {} : { columns }), write: append },
    text: () => text,
    /** Calls `listener` after each write until the returned function is called. */
    listen: (listener: () => void) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    }
  }
}

/** Effect's `Console` over a Node console, as Effect's default one is over the global console. */
const effectConsole = (console: globalThis.Console): Console.Console => ({
  [Console.TypeId]: Console.TypeId,
  assert: (condition, ...args) => Effect.sync(() => console.assert(condition, ...args)),
  clear: Effect.sync(() => console.clear()),
  count: (label) => Effect.sync(() => console.count(label)),
  countReset: (label) => Effect.sync(() => console.countReset(label)),
  debug: (...args) => Effect.sync(() => console.debug(...args)),
  dir: (item, options) => Effect.sync(() => console.dir(item, options)),
  dirxml: (...args) => Effect.sync(() => console.dirxml(...args)),
  error: (...args) => Effect.sync(() => console.error(...args)),
  group: (options) =>
    Effect.sync(() =>
      options?.collapsed === true ? console.groupCollapsed(options.label) : console.group(options?.label)
    ),
  groupEnd: Effect.sync(() => console.groupEnd()),
  info: (...args) => Effect.sync(() => console.info(...args)),
  log: (...args) => Effect.sync(() => console.log(...args)),
  table: (data, properties) => Effect.sync(() => console.table(data, properties)),
  time: (label) => Effect.sync(() => console.time(label)),
  timeEnd: (label) => Effect.sync(() => console.timeEnd(label)),
  timeLog: (label, ...args) => Effect.sync(() => console.timeLog(label, ...args)),
  trace: (...args) => Effect.sync(() => console.trace(...args)),
  warn: (...args) => Effect.sync(() => console.warn(...args)),
  unsafe: console
})

/**
 * What a fresh process has: the platform, and its own process-wide limiters (the client's pacing and
 * creation quota), so that one run does not inherit the requests and creations of the one before.
 */
const processLayer = () => Layer.mergeAll(NodeContext.layer, Pacing.layer(), CreationQuota.layer())

/** A run under way: its fiber (the exit code) and what it has written so far. */
export interface Running {
  readonly fiber: Fiber.RuntimeFiber<number>
  readonly stdout: () => string
  readonly stderr: () => string
  /** Waits until standard output matches `pattern`; fails if the program ends first. */
  readonly awaitStdout: (pattern: RegExp) => Effect.Effect<RegExpExecArray, Error>
}

const awaitOutput = (output: ReturnType<typeof recorder>, fiber: Fiber.RuntimeFiber<number>) => (pattern: RegExp) =>
  Effect.async<RegExpExecArray, Error>((resume) => {
    let done = false
    const finish = (result: Effect.Effect<RegExpExecArray, Error>) => {
      if (done) return
      done = true
      stop()
      resume(result)
    }
    const check = () => {
      const match = pattern.exec(output.text())
      if (match !== null) finish(Effect.succeed(match))
    }
    const stop = output.listen(check)
    fiber.addObserver((exit) =>
      finish(
        Effect.fail(new Error(`the program ended (${String(exit)}) before printing ${pattern}:\n${output.text()}`))
      )
    )
    check()
    return Effect.sync(stop)
  })

/** Starts the program on `args` (the words after `community-api`) in a fiber. */
export const start = (args: ReadonlyArray<string>, options: RunOptions = {}): Effect.Effect<Running> =>
  Effect.suspend(() => {
    const stdout = recorder(options.terminal?.stdout, options.terminal?.columns)
    const stderr = recorder(options.terminal?.stderr)
    const console = new NodeConsole({ stdout: stdout.stream, stderr: stderr.stream, colorMode: false })
    const stdin = options.stdinStream ??
      Readable.from(options.stdin === undefined || options.stdin === "" ? [] : [options.stdin])
    return Cli.main(["node", "community-api", ...args]).pipe(
      // As the executable: a failure (the sandbox could not start) exits 1, its message already written.
      Effect.exit,
      Effect.map((exit) => Exit.isSuccess(exit) ? exit.value : 1),
      Effect.withConsole(effectConsole(console)),
      Effect.provideService(Stdio, { stdin, stdout: stdout.sink, stderr: stderr.sink }),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(options.env ?? {})))),
      Effect.provide(processLayer()),
      // Stopped by interruption, as Ctrl-C stops the executable, even when started in an uninterruptible region.
      Effect.interruptible,
      Effect.forkDaemon,
      Effect.map((fiber): Running => ({
        fiber,
        stdout: stdout.text,
        stderr: stderr.text,
        awaitStdout: awaitOutput(stdout, fiber)
      }))
    )
  })

/** Runs the program on `args` to its end and collects what it printed and its exit code. */
export const run = (args: ReadonlyArray<string>, options: RunOptions = {}): Promise<Result> =>
  Effect.runPromise(
    Effect.flatMap(start(args, options), (running) =>
      Effect.map(Fiber.join(running.fiber), (code) => ({
        code,
        stdout: running.stdout(),
        stderr: running.stderr()
      })))
  )
