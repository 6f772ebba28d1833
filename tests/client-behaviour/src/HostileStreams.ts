/**
 * What a hostile `node:http` server (`Hostile.serve`) writes to make a body endless or huge, and the
 * memory of the process sampled meanwhile, with no Effect. Every loop is bounded and stops when the
 * client closes the connection.
 */
import type * as http from "node:http"

/** What {@link streamBody} wrote, read when the scenario is done. */
export interface Written {
  /** Bytes written to the socket before the body ended or the client closed the connection. */
  bytes: number
  /** Whether the client closed the connection before the whole body was written. */
  cut: boolean
  /** Settles when the connection has closed. */
  readonly closed: Promise<void>
}

/**
 * Writes `prefix`, then filler bytes up to `total` bytes in all, then `suffix`, honouring back
 * pressure, and stops as soon as the client closes the connection. Without `declare` the body goes
 * chunked, with no length announced.
 */
export const streamBody = (
  response: http.ServerResponse,
  options: { readonly total: number; readonly prefix: string; readonly suffix: string; readonly declare?: boolean }
): Written => {
  let closed = () => {}
  const written: Written = { bytes: 0, cut: false, closed: new Promise((resolve) => closed = resolve) }
  const chunk = Buffer.alloc(64 * 1024, "a")
  const end = Buffer.from(options.suffix)
  const filler = options.total - Buffer.byteLength(options.prefix) - end.length
  let sent = 0
  response.writeHead(200, {
    "content-type": "application/json",
    ...(options.declare === true ? { "content-length": String(options.total) } : {})
  })
  response.on("close", () => {
    written.cut = !response.writableFinished
    closed()
  })
  response.write(options.prefix)
  written.bytes += Buffer.byteLength(options.prefix)
  const pump = () => {
    while (sent < filler && !response.destroyed) {
      const n = Math.min(chunk.length, filler - sent)
      sent += n
      written.bytes += n
      if (!response.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        response.once("drain", pump)
        return
      }
    }
    if (!response.destroyed) {
      written.bytes += end.length
      response.end(end)
    }
  }
  pump()
  return written
}

/**
 * Awaits `work` while sampling the memory of the process (heap and buffers) every few milliseconds,
 * and gives its result with the largest growth seen over the start, in bytes.
 */
export const peakGrowth = async <A>(work: () => PromiseLike<A>): Promise<[A, number]> => {
  const used = () => {
    const memory = process.memoryUsage()
    return memory.heapUsed + memory.external
  }
  const start = used()
  let peak = start
  const timer = setInterval(() => {
    peak = Math.max(peak, used())
  }, 2)
  try {
    const result = await work()
    return [result, Math.max(peak, used()) - start]
  } finally {
    clearInterval(timer)
  }
}

/**
 * Prints a figure the scenario measured when `CLIENT_FIGURES=1`, so that `docs/reliability.md` can be
 * brought up to date with one command (the lines' `Figures.report`).
 */
export const report = (text: string): void => {
  if (process.env["CLIENT_FIGURES"] === "1") console.info(`[figure] ${text}`)
}
