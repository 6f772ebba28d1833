/**
 * The standard streams of the command line as a service. By default they are the process's own; a
 * program that runs the command line inside itself (its tests do) gives others. Text output goes
 * through Effect's `Console`, so only whether standard output is a terminal is read here.
 *
 * @since 0.1.0
 */
import { Context } from "effect"
import type * as Progress from "./Progress.js"

/**
 * Standard input: where `--token-stdin` reads the token.
 *
 * @since 0.1.0
 */
export interface Input extends NodeJS.ReadableStream {
  readonly isTTY?: boolean | undefined
}

/**
 * @since 0.1.0
 */
export interface Service {
  readonly stdin: Input
  /** Standard output: is it a terminal (colours), and of how many columns (the width of the help)? */
  readonly stdout: Progress.Sink
  /**
   * Standard error: is it a terminal (then the progress bar of `--all` is drawn there, and each retry
   * announced), and where the bar is drawn.
   */
  readonly stderr: Progress.Sink
}

/**
 * The streams, the process's own unless provided.
 *
 * @since 0.1.0
 */
export class Stdio extends Context.Reference<Stdio>()("@community-api/cli/Stdio", {
  // Getters: a stream of the process is only opened when a command uses it, as before this service.
  defaultValue: (): Service => ({
    get stdin() {
      return process.stdin
    },
    get stdout() {
      return process.stdout
    },
    get stderr() {
      return process.stderr
    }
  })
}) {}
