/**
 * The load generator's process: `connections` keep-alive loops of POST requests for a fixed time,
 * counting the answers. It runs in a child process so that it does not share the event loop (or the
 * garbage collector) of the server it measures.
 */
import * as Http from "node:http"
import { performance } from "node:perf_hooks"

/** What the worker is asked to do. */
export interface Job {
  readonly origin: string
  readonly path: string
  /** Bearer tokens, used round-robin (the rate limit counts per user). */
  readonly tokens: ReadonlyArray<string>
  readonly body: string
  readonly connections: number
  readonly warmupMillis: number
  readonly durationMillis: number
}

/** What the worker reports. */
export interface Report {
  /** Answers received in the measured time. */
  readonly completed: number
  /** Of these, answers with `"status":"ok"`. */
  readonly ok: number
  /** Transport failures. */
  readonly failures: number
  readonly elapsedMillis: number
}

const run = (job: Job): Promise<Report> =>
  new Promise((resolve) => {
    const url = new URL(job.path, job.origin)
    const agent = new Http.Agent({ keepAlive: true, maxSockets: job.connections })
    const body = Buffer.from(job.body)
    let next = 0
    let measuring = false
    let stopping = false
    let completed = 0
    let ok = 0
    let failures = 0
    let started = 0
    let active = job.connections

    const finish = () => {
      active--
      if (active === 0) {
        agent.destroy()
        resolve({ completed, ok, failures, elapsedMillis: performance.now() - started })
      }
    }
    const loop = (): void => {
      if (stopping) return finish()
      const token = job.tokens[next++ % job.tokens.length]!
      const request = Http.request(url, {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "content-length": body.length
        }
      }, (response) => {
        const chunks: Array<Buffer> = []
        response.on("data", (chunk: Buffer) => chunks.push(chunk))
        response.on("end", () => {
          if (measuring && !stopping) {
            completed++
            if (Buffer.concat(chunks).includes("\"status\":\"ok\"")) ok++
          }
          loop()
        })
      })
      request.on("error", () => {
        if (measuring) failures++
        loop()
      })
      request.end(body)
    }

    for (let i = 0; i < job.connections; i++) loop()
    setTimeout(() => {
      measuring = true
      started = performance.now()
      setTimeout(() => {
        stopping = true
      }, job.durationMillis)
    }, job.warmupMillis)
  })

process.once("message", (job: Job) => {
  void run(job).then((report) => process.send?.(report, () => process.exit(0)))
})
