/**
 * B10 stalled bodies (`pnpm bench B10`, or `pnpm bench stalled`): the memory the sandbox takes while
 * 1,000 request bodies of 1 MiB stall halfway, and what it gives back once its body timeout has
 * dropped them.
 *
 * The sandbox runs in a child process of its own (`internal/stalledServer.ts`: `layerServe` with the
 * demo data and every default but the connection cap), which reports `process.memoryUsage()` over
 * IPC. After 20 real requests, the baseline is read after a full collection. Then 1,000 sockets each
 * send the headers of a 1 MiB form without a token (so the server must read the body for `api_key`)
 * and 512 KiB of it, as fast as the server takes them, and stall; the child is read every 250 ms,
 * without collecting, until the body timeout (the default 30 s) has closed every socket ("the drop"),
 * then every second for 45 s. The figures are the largest readings before the drop and the reading
 * 45 s after it, as the server's own collector left them; one more reading after a forced full
 * collection tells garbage not yet collected from memory held.
 *
 * A diagnostic run writes heap snapshots of the child while the bodies stall and 45 s after the drop
 * into the folder named by `BENCH_B10_SNAPSHOTS`.
 */
import * as DemoFixture from "@community-api/server/DemoFixture"
import { Effect } from "effect"
import { fork } from "node:child_process"
import * as Net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import * as Progress from "./internal/Progress.js"
import type { Result } from "./internal/Result.js"
import type { Command, Message } from "./internal/stalledServer.js"
import { round } from "./internal/Stats.js"

const sockets = 1_000
const announced = 1024 * 1024
const sentPerSocket = announced / 2
/** How long after the drop the figure is read (the target: back within it). */
const afterDropMillis = 45_000
/** How long the sockets may take to be dropped: the default body timeout, plus a margin for a busy machine. */
const dropLimitMillis = 30_000 + 60_000
const megabyte = 1_000_000

const targets = { peakRssMB: 200, afterRssMB: 100 } as const

type Memory = NodeJS.MemoryUsage
type MemoryMessage = Extract<Message, { readonly _tag: "memory" }>
type SnapshotMessage = Extract<Message, { readonly _tag: "snapshot" }>

/** The sandbox in its child process, read over IPC. */
interface Child {
  readonly port: number
  readonly measure: (collect: boolean) => Promise<Memory>
  readonly snapshot: (file: string) => Promise<string>
  readonly close: () => void
}

const startChild = (): Promise<Child> => {
  const child = fork(fileURLToPath(new URL("./internal/stalledServer.ts", import.meta.url)), [
    JSON.stringify({ maxConnections: sockets + 100 })
  ], {
    execArgv: ["--import", import.meta.resolve("tsx"), "--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"]
  })
  let nextId = 0
  const waiting = new Map<number, (message: Message) => void>()
  const ask = (command: (id: number) => Command) =>
    new Promise<Message>((resolve) => {
      const id = nextId++
      waiting.set(id, resolve)
      child.send(command(id))
    })
  return new Promise((resolve, reject) => {
    child.on("message", (message: Message) => {
      if (message._tag === "ready") {
        resolve({
          port: message.port,
          measure: (collect) =>
            ask((id) => ({ id, command: "measure", collect })).then((m) => (m as MemoryMessage).memory),
          snapshot: (file) => ask((id) => ({ id, command: "snapshot", file })).then((m) => (m as SnapshotMessage).file),
          close: () => child.kill("SIGKILL")
        })
        return
      }
      const resume = waiting.get(message.id)
      waiting.delete(message.id)
      resume?.(message)
    })
    child.once("exit", (code) => reject(new Error(`the sandbox's process exited with ${code}`)))
  })
}

const progress = (text: string) => Effect.runSync(Progress.line(text))

const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis))

/** A real request: the demo owner's `users/me`; true when it answers ok. */
const realRequest = (port: number): Promise<boolean> =>
  fetch(`http://127.0.0.1:${port}/external-api/v2/users/me`, {
    method: "POST",
    headers: { authorization: `Bearer ${DemoFixture.tokens.owner}` },
    signal: AbortSignal.timeout(30_000)
  }).then((response) => response.json() as Promise<{ status?: string }>).then(
    (body) => body.status === "ok",
    () => false
  )

/** A stalled sender: its socket, and when the server closed it. */
interface Sender {
  readonly socket: Net.Socket
  closedAt: number | undefined
}

/**
 * Sends the headers of a 1 MiB form without a token, then {@link sentPerSocket} bytes of it as fast as
 * the server takes them (a pause of 300 ms without a drain is where it stalls), then nothing.
 */
const stall = (port: number): Promise<Sender> =>
  new Promise((resolve, reject) => {
    const socket = Net.connect(port, "127.0.0.1")
    const sender: Sender = { socket, closedAt: undefined }
    socket.on("error", () => {})
    // What the server sends (its 408 once the body timeout drops the request) is read and let go,
    // so that the server's close reaches this side.
    socket.resume()
    socket.on("close", () => (sender.closedAt = performance.now()))
    socket.once("connect", async () => {
      socket.write(
        `POST /external-api/v2/users/me HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Content-Type: application/x-www-form-urlencoded\r\nContent-Length: ${announced}\r\n\r\npad=`
      )
      const chunk = "a".repeat(16 * 1024)
      for (let sent = 4; sent < sentPerSocket && sender.closedAt === undefined; sent += chunk.length) {
        if (socket.write(chunk)) continue
        const drained = await Promise.race([
          new Promise<boolean>((done) => socket.once("drain", () => done(true))),
          sleep(300).then(() => false)
        ])
        if (!drained) break
      }
      resolve(sender)
    })
    socket.once("error", reject)
  })

const mb = (bytes: number) => round(bytes / megabyte, 1)
const signed = (bytes: number) => `${bytes >= 0 ? "+" : ""}${mb(bytes)}`

/** Runs B10. */
export const run: Effect.Effect<Result, unknown> = Effect.promise(async () => {
  const loadAtStart = os.loadavg()[0]!
  const snapshots = process.env["BENCH_B10_SNAPSHOTS"]
  const child = await startChild()
  try {
    for (let i = 0; i < 20; i++) {
      if (!(await realRequest(child.port))) throw new Error("the sandbox did not answer a real request")
    }
    await sleep(1_000)
    const baseline = await child.measure(true)

    // Read every 250 ms, without collecting, from the first socket until the drop.
    const readings: Array<{ readonly at: number; readonly memory: Memory }> = []
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        readings.push({ at: performance.now(), memory: await child.measure(false) })
        await sleep(250)
      }
    })()

    progress(`B10: ${sockets} senders stall halfway through a 1 MiB body`)
    const senders: Array<Sender> = []
    for (let batch = 0; batch < sockets / 50; batch++) {
      senders.push(...(await Promise.all(Array.from({ length: 50 }, () => stall(child.port)))))
    }
    await sleep(3_000)
    const openWhileStalled = senders.filter((s) => s.closedAt === undefined).length
    const servedWhileStalled = await realRequest(child.port)
    if (snapshots !== undefined) await child.snapshot(path.join(snapshots, "b9-stalled.heapsnapshot"))

    progress("B10: waiting for the body timeout to drop them")
    const waitStarted = performance.now()
    while (senders.some((s) => s.closedAt === undefined) && performance.now() - waitStarted < dropLimitMillis) {
      await sleep(250)
    }
    const stillOpen = senders.filter((s) => s.closedAt === undefined).length
    senders.forEach((s) => s.socket.destroy())
    const droppedAt = Math.max(...senders.map((s) => s.closedAt ?? performance.now()))
    sampling = false
    await sampler
    const beforeDrop = readings.filter((r) => r.at <= droppedAt)
    // While every body stalls, before the first is dropped: the drop itself moves memory too (the
    // bodies still waiting get the budget of those dropped first and read on until their turn).
    const firstDropped = Math.min(...senders.map((s) => s.closedAt ?? performance.now()))
    const stalled = readings.filter((r) => r.at < firstDropped)
    const stalledPeakOf = (pick: (m: Memory) => number) => Math.max(...stalled.map((r) => pick(r.memory)))
    const peakOf = (pick: (m: Memory) => number) => Math.max(...beforeDrop.map((r) => pick(r.memory)))
    const peak = {
      rss: peakOf((m) => m.rss),
      heapUsed: peakOf((m) => m.heapUsed),
      heapTotal: peakOf((m) => m.heapTotal),
      external: peakOf((m) => m.external)
    }

    progress(`B10: dropped; reading the sandbox for ${afterDropMillis / 1000} s`)
    const after: Array<{ readonly seconds: number; readonly memory: Memory }> = []
    for (;;) {
      const seconds = (performance.now() - droppedAt) / 1000
      after.push({ seconds, memory: await child.measure(false) })
      if (seconds >= afterDropMillis / 1000) break
      await sleep(Math.min(1_000, Math.max(0, droppedAt + afterDropMillis - performance.now())))
    }
    const last = after[after.length - 1]!.memory
    if (snapshots !== undefined) await child.snapshot(path.join(snapshots, "b9-after.heapsnapshot"))
    const collected = await child.measure(true)
    const servedAfter = await realRequest(child.port)
    const loadAtEnd = os.loadavg()[0]!

    const rssUnder = after.find((r) => r.memory.rss - baseline.rss < targets.afterRssMB * megabyte)
    const peakRss = peak.rss - baseline.rss
    const afterRss = last.rss - baseline.rss
    const met = peakRss <= targets.peakRssMB * megabyte && afterRss <= targets.afterRssMB * megabyte &&
      stillOpen === 0 && openWhileStalled === sockets && servedWhileStalled && servedAfter
    const figures = {
      sockets,
      sentPerSocketKiB: sentPerSocket / 1024,
      announcedKiB: announced / 1024,
      openWhileStalled,
      servedWhileStalled,
      stillOpenAfterTimeout: stillOpen,
      servedAfter,
      baselineRssMB: mb(baseline.rss),
      baselineHeapUsedMB: mb(baseline.heapUsed),
      baselineExternalMB: mb(baseline.external),
      stalledPeakRssMB: mb(stalledPeakOf((m) => m.rss) - baseline.rss),
      stalledPeakHeapUsedMB: mb(stalledPeakOf((m) => m.heapUsed) - baseline.heapUsed),
      stalledPeakExternalMB: mb(stalledPeakOf((m) => m.external) - baseline.external),
      peakRssMB: mb(peakRss),
      peakHeapUsedMB: mb(peak.heapUsed - baseline.heapUsed),
      peakExternalMB: mb(peak.external - baseline.external),
      peakHeapTotalMB: mb(peak.heapTotal - baseline.heapTotal),
      afterDropSeconds: round(after[after.length - 1]!.seconds, 1),
      afterRssMB: mb(afterRss),
      afterHeapUsedMB: mb(last.heapUsed - baseline.heapUsed),
      afterExternalMB: mb(last.external - baseline.external),
      afterArrayBuffersMB: mb(last.arrayBuffers - baseline.arrayBuffers),
      afterHeapTotalMB: mb(last.heapTotal - baseline.heapTotal),
      rssUnderTargetAfterSeconds: rssUnder === undefined ? "never within 45 s" : round(rssUnder.seconds, 1),
      collectedRssMB: mb(collected.rss - baseline.rss),
      collectedHeapUsedMB: mb(collected.heapUsed - baseline.heapUsed),
      collectedExternalMB: mb(collected.external - baseline.external),
      loadAverageAtStart: round(loadAtStart),
      loadAverageAtEnd: round(loadAtEnd)
    }
    const back = (memory: Memory) =>
      memory.heapUsed - baseline.heapUsed < 8 * megabyte && memory.external - baseline.external < 8 * megabyte
    const notes = [
      ...(stillOpen > 0 ? [`${stillOpen} sockets were still open ${dropLimitMillis / 1000} s after they stalled`] : []),
      ...(openWhileStalled < sockets ? [`only ${openWhileStalled} of ${sockets} sockets were open while stalled`] : []),
      ...(servedWhileStalled && servedAfter ? [] : ["a real request was not served"]),
      ...(!back(last) && back(collected) ?
        [
          `heap ${signed(last.heapUsed - baseline.heapUsed)} MB and external ` +
          `${signed(last.external - baseline.external)} MB ${afterDropMillis / 1000} s after the drop are garbage ` +
          "the idle server has not collected yet (nothing allocates, so V8 runs no collection): a forced full " +
          `collection then brings them to ${signed(collected.heapUsed - baseline.heapUsed)} and ` +
          `${signed(collected.external - baseline.external)} MB, and rss to ${signed(collected.rss - baseline.rss)} MB`
        ] :
        []),
      ...(afterRss > targets.afterRssMB * megabyte && back(last) ?
        [
          `rss stays ${signed(afterRss)} MB while heap and external are back at their baseline: the pages are ` +
          "the allocator's, freed but kept for reuse"
        ] :
        [])
    ]
    return {
      id: "B10",
      title: "Stalled bodies",
      method: `The sandbox (layerServe, demo data, default timeouts) in a child process reporting ` +
        `process.memoryUsage() over IPC; baseline after 20 requests and a full collection. ${sockets} sockets ` +
        `each send the headers of a ${announced / 1024} KiB form without a token and ${sentPerSocket / 1024} KiB ` +
        "of it, then stall until the body timeout (30 s) drops them; the child is read every 250 ms without " +
        "collecting until the drop (the peak: while all stall, and until the last is dropped), then each " +
        `second for ${afterDropMillis / 1000} s. MB = 10^6 bytes.`,
      figures,
      target: `peak ≤ +${targets.peakRssMB} MB rss; ${afterDropMillis / 1000} s after the drop ≤ ` +
        `+${targets.afterRssMB} MB rss`,
      met,
      headline: `peak rss ${signed(peakRss)} MB (heap ${signed(peak.heapUsed - baseline.heapUsed)}, external ` +
        `${signed(peak.external - baseline.external)}); ${round(after[after.length - 1]!.seconds, 0)} s after ` +
        `the drop rss ${signed(afterRss)} MB (heap ${signed(last.heapUsed - baseline.heapUsed)}, external ` +
        `${signed(last.external - baseline.external)}); load ${round(loadAtStart, 1)}`,
      ...(notes.length === 0 ? {} : { note: notes.join("; ") })
    }
  } finally {
    child.close()
  }
})
