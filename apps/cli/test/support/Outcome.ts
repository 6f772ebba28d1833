/**
 * What one run of the command line gives, however it ran: in this process or as a child process.
 */
import { expect } from "@effect/vitest"

/** The exit code and everything written to standard output and standard error. */
export interface Result {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Asserts that `token` shows nowhere in what the run wrote. */
export const expectNoToken = (result: Result, token: string) => {
  expect(result.stdout).not.toContain(token)
  expect(result.stderr).not.toContain(token)
}

export interface RunOptions {
  /**
   * The whole environment the command reads (`COMMUNITY_API_*`, `NO_COLOR`, `PORT`). In process it
   * is all there is; a child process also inherits the rest of the test's environment, without the
   * three `COMMUNITY_API_*` variables unless they are given here.
   */
  readonly env?: Record<string, string>
  /** Written to standard input, which then ends. */
  readonly stdin?: string
  /** In process only: standard input as a stream the test writes to and ends (instead of `stdin`). */
  readonly stdinStream?: NodeJS.ReadableStream
  /**
   * In process only: which streams the program takes for terminals (none unless given), and the
   * columns of standard output. A child process always writes to pipes.
   */
  readonly terminal?: {
    readonly stdout?: boolean
    readonly stderr?: boolean
    readonly columns?: number
  }
}

/**
 * Asserts that `stderr` holds a progress bar of `unit` drawn at least once and erased at the end: each
 * drawing starts by erasing the line (carriage return, then ESC [2K).
 */
export const expectProgressBars = (stderr: string, unit: string) => {
  const erase = "\r\u001b[2K"
  const drawings = stderr.split(erase).slice(1, -1)
  expect(drawings.length).toBeGreaterThan(0)
  const bar = new RegExp(`^\\[[#-]{24}\\] \\d+/\\d+ ${unit} {2}\\d+/s$`)
  for (const drawing of drawings) expect(drawing).toMatch(bar)
  expect(stderr.endsWith(erase)).toBe(true)
}
