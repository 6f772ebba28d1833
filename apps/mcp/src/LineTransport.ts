/**
 * The MCP server's stdio transport: JSON-RPC messages one per line, each line held to a bound, and
 * an answer for every line that is not a message, as JSON-RPC asks: a line that is not JSON gets a
 * parse error (-32700), valid JSON that is not a message gets an invalid-request error (-32600), a line
 * over the bound is refused unread. The server goes on after each of them, and the end of the input
 * closes the transport (the calls in flight are then interrupted by the protocol).
 *
 * The official SDK's own stdio transport answers none of those lines, holds a whole line however long
 * (up to a buffer bound past which it closes), and never sees the end of its input: hence this one.
 *
 * @since 0.1.0
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js"
import { ErrorCode, type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js"
import { type Line, LineSplitter } from "./internal/lines.js"

/**
 * The longest line read: 8 MiB, the newline not counted. A longer one is refused without being held.
 *
 * @since 0.1.0
 * @category constants
 */
export const maxLineBytes = 8 * 1024 * 1024

/**
 * Where the messages are written: a process's standard output, or any sink of text (the command line
 * runs the server on its own). Back-pressure is kept when the sink has `drain`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Output {
  readonly write: (text: string) => unknown
  readonly once?: (event: "drain", listener: () => void) => unknown
  readonly on?: (event: "error", listener: (error: NodeJS.ErrnoException) => void) => unknown
}

/**
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly input: NodeJS.ReadableStream
  readonly output: Output
  /** Defaults to {@link maxLineBytes}. */
  readonly maxLineBytes?: number
}

/** A JSON-RPC id, when a parsed value carries one a reply may name. */
const idOf = (value: unknown): string | number | null => {
  if (typeof value !== "object" || value === null || !("id" in value)) return null
  const id = (value as { readonly id: unknown }).id
  return typeof id === "string" || (typeof id === "number" && Number.isSafeInteger(id)) ? id : null
}

const isNotification = (value: unknown): boolean =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !("id" in value) && "method" in value

const mebibytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024) * 10) / 10} MiB`

/**
 * A {@link Transport} over a readable and a writable stream of lines.
 *
 * @since 0.1.0
 * @category constructors
 */
export class LineTransport implements Transport {
  onclose?: (() => void) | undefined
  onerror?: ((error: Error) => void) | undefined
  onmessage?: (<T extends JSONRPCMessage>(message: T) => void) | undefined

  private readonly splitter: LineSplitter
  private closed = false
  private started = false

  constructor(private readonly options: Options) {
    this.splitter = new LineSplitter(options.maxLineBytes ?? maxLineBytes)
  }

  /** The bytes of the line being read that are held now: never more than the bound. */
  get bufferedBytes(): number {
    return this.splitter.bufferedBytes
  }

  private readonly onData = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk
    for (const line of this.splitter.push(bytes)) this.read(line)
  }

  private readonly onEnd = () => {
    for (const line of this.splitter.end()) this.read(line)
    void this.close()
  }

  private readonly onInputError = (error: Error) => {
    this.onerror?.(error)
    void this.close()
  }

  private readonly onOutputError = (error: NodeJS.ErrnoException) => {
    // The reader went away (EPIPE): nothing more can be said to it.
    if (error.code !== "EPIPE") this.onerror?.(error)
    void this.close()
  }

  /**
   * @since 0.1.0
   */
  start(): Promise<void> {
    if (this.started) return Promise.reject(new Error("the transport is already started"))
    this.started = true
    this.options.input.on("data", this.onData)
    this.options.input.on("end", this.onEnd)
    this.options.input.on("close", this.onEnd)
    this.options.input.on("error", this.onInputError)
    this.options.output.on?.("error", this.onOutputError)
    return Promise.resolve()
  }

  /**
   * @since 0.1.0
   */
  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message)
  }

  /**
   * @since 0.1.0
   */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve()
    this.closed = true
    const { input } = this.options
    input.off("data", this.onData)
    input.off("end", this.onEnd)
    input.off("close", this.onEnd)
    input.off("error", this.onInputError)
    input.pause()
    this.onclose?.()
    return Promise.resolve()
  }

  private read(line: Line): void {
    if (this.closed) return
    if (line._tag === "TooLong") {
      return void this.refuse(
        null,
        ErrorCode.InvalidRequest,
        `a line of ${mebibytes(line.bytes)} is longer than the ${
          mebibytes(this.splitter.maxLineBytes)
        } read; it was not read`
      )
    }
    const text = line.text.endsWith("\r") ? line.text.slice(0, -1) : line.text
    if (text.trim() === "") return
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return void this.refuse(null, ErrorCode.ParseError, "the line is not JSON")
    }
    if (Array.isArray(value)) {
      return void this.refuse(
        null,
        ErrorCode.InvalidRequest,
        "batches of messages are not supported: one message a line"
      )
    }
    const parsed = JSONRPCMessageSchema.safeParse(value)
    if (!parsed.success) {
      // A notification gets no answer, even one that is wrong.
      if (isNotification(value)) return
      return void this.refuse(idOf(value), ErrorCode.InvalidRequest, "the line is not a JSON-RPC 2.0 message")
    }
    this.onmessage?.(parsed.data)
  }

  private refuse(id: string | number | null, code: number, message: string): Promise<void> {
    return this.write({ jsonrpc: "2.0", id, error: { code, message } })
  }

  private write(value: unknown): Promise<void> {
    if (this.closed) return Promise.resolve()
    const { output } = this.options
    return new Promise((resolve) => {
      const written = output.write(`${JSON.stringify(value)}\n`)
      if (written === false && output.once !== undefined) output.once("drain", () => resolve())
      else resolve()
    })
  }
}
