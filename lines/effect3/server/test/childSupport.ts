/**
 * A program run as a child process, as a user runs it (the sandbox, or the command line's `serve`):
 * what it has written so far, how it ended, and a bounded wait for a line of its output. The tests
 * of the command line use it too.
 */
import type { ChildProcessByStdio } from "node:child_process"
import type { Readable, Writable } from "node:stream"

/** How a child process ended: its exit code, or the signal that ended it. */
export interface Ended {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

/** A child process being watched. */
export interface Watched {
  /** Everything written to standard output so far. */
  readonly stdout: () => string
  /** Everything written to standard error so far. */
  readonly stderr: () => string
  /** Resolves once the process has ended and its output is all read; rejects if it could not start. */
  readonly ended: Promise<Ended>
  /**
   * Resolves once standard output holds `text`; throws with the output when the process ends first
   * or `millis` pass (a bound on a hang, sized by the caller for a busy machine).
   */
  readonly printed: (text: string, millis: number) => Promise<void>
}

/** Watches `child` from its start: call it right after spawning, before any output can be lost. */
export const watch = (child: ChildProcessByStdio<Writable | null, Readable, Readable>): Watched => {
  let stdout = ""
  let stderr = ""
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk))
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk))
  const ended = new Promise<Ended>((resolve, reject) => {
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ code, signal }))
  })
  const printed = async (text: string, millis: number) => {
    const deadline = Date.now() + millis
    while (!stdout.includes(text)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`not printed: ${text}\n${stdout}\n${stderr}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
  return { stdout: () => stdout, stderr: () => stderr, ended, printed }
}

/**
 * Runs `child` to its end, killed after `millis` (when given) if it is still running: its exit code
 * and output.
 */
export const toEnd = async (
  child: ChildProcessByStdio<Writable | null, Readable, Readable>,
  millis?: number
): Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }> => {
  const watched = watch(child)
  const bound = millis === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), millis)
  try {
    const { code } = await watched.ended
    return { code, stdout: watched.stdout(), stderr: watched.stderr() }
  } finally {
    clearTimeout(bound)
  }
}
