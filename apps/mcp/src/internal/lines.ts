/**
 * Lines of a byte stream, each held to a bound: a line longer than the bound is not kept, only
 * counted, so a peer that never sends a newline cannot make the server hold more than the bound and
 * one chunk.
 *
 * @internal
 */

/** A complete line (its newline removed), or the size of one that was longer than the bound. */
export type Line =
  | { readonly _tag: "Line"; readonly text: string }
  | { readonly _tag: "TooLong"; readonly bytes: number }

const newline = 0x0a

/**
 * Splits chunks into lines of at most `maxLineBytes` bytes (the newline not counted). The bytes of a
 * line still open are copied out of their chunk, so a large chunk is never kept alive by a short
 * piece of it.
 */
export class LineSplitter {
  private parts: Array<Buffer> = []
  private size = 0
  /** While a line over the bound goes on: how many of its bytes have gone by. */
  private overflow: number | undefined = undefined

  constructor(readonly maxLineBytes: number) {}

  /** The bytes held now: never more than the bound. */
  get bufferedBytes(): number {
    return this.size
  }

  /** Takes a chunk and gives the lines it completes, in order. */
  push(chunk: Uint8Array): Array<Line> {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const lines: Array<Line> = []
    let start = 0
    for (;;) {
      const end = bytes.indexOf(newline, start)
      this.take(bytes.subarray(start, end === -1 ? bytes.length : end))
      if (end === -1) return lines
      lines.push(this.finish())
      start = end + 1
    }
  }

  /** The end of the input: the last line, when it has no newline. */
  end(): Array<Line> {
    return this.size > 0 || this.overflow !== undefined ? [this.finish()] : []
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return
    if (this.overflow !== undefined) {
      this.overflow += piece.length
    } else if (this.size + piece.length > this.maxLineBytes) {
      this.overflow = this.size + piece.length
      this.parts = []
      this.size = 0
    } else {
      this.parts.push(Buffer.from(piece))
      this.size += piece.length
    }
  }

  private finish(): Line {
    const line: Line = this.overflow !== undefined
      ? { _tag: "TooLong", bytes: this.overflow }
      : { _tag: "Line", text: Buffer.concat(this.parts, this.size).toString("utf8") }
    this.parts = []
    this.size = 0
    this.overflow = undefined
    return line
  }
}
