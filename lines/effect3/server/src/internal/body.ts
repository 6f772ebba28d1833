/**
 * Reading a request's body, bounded twice: one body is never held past `maxBodyBytes` (a larger one is
 * drained, not kept), and on a port the bodies still arriving share a budget, so a thousand senders that
 * stall halfway hold a bounded amount of memory together rather than a mebibyte each.
 *
 * The first `freeBodyBytes` of every body are outside the budget: an ordinary request (a few hundred
 * bytes, a few kilobytes with a long value) never waits for it. Past them a body takes its bytes out
 * of the request only once the budget has room for them; while it waits they stay in the request,
 * whose stream stops reading its socket once it holds its high-water mark (the sender is then held
 * back by TCP), until a body ends, fails or times out and gives its share back, first come first
 * served. So memory held by incomplete bodies stays under `freeBodyBytes` plus what a request's
 * stream buffers (its high-water mark and the read of the socket that crosses it, 64 KiB at most)
 * per connection (the connection cap bounds those), plus the budget.
 *
 * @internal
 */
import type { HttpServerRequest } from "@effect/platform"
import { Context, Effect, Stream } from "effect"
import * as Texts from "./texts.js"

/** The largest body the server reads (an assumption: the spec states no bound). */
export const maxBodyBytes = 1024 * 1024

/** The bytes of each body read without the shared budget. */
export const freeBodyBytes = 16 * 1024

/** The budget shared by the bodies being read on one port, past their free bytes. */
export const budgetBytes = 32 * 1024 * 1024

interface Waiter {
  readonly bytes: number
  readonly granted: () => void
}

/** Bytes that bodies still arriving may hold together, handed out first come first served. */
export class BodyBudget {
  private used = 0
  private readonly queue: Array<Waiter> = []

  constructor(readonly bytes: number) {}

  /** Bytes held now. */
  get held(): number {
    return this.used
  }

  private fits(bytes: number): boolean {
    // A share larger than the whole budget is given when nothing else is held, so it cannot wait forever.
    return this.used + bytes <= this.bytes || this.used === 0
  }

  /** Takes `bytes` at once, or answers false (nobody may pass those already waiting). */
  take(bytes: number): boolean {
    if (this.queue.length > 0 || !this.fits(bytes)) return false
    this.used += bytes
    return true
  }

  /** Calls `granted` once `bytes` are taken for the caller; cancel with {@link cancel}. */
  wait(bytes: number, granted: () => void): Waiter {
    const waiter = { bytes, granted }
    this.queue.push(waiter)
    return waiter
  }

  cancel(waiter: Waiter): void {
    const at = this.queue.indexOf(waiter)
    if (at >= 0) this.queue.splice(at, 1)
    this.grant()
  }

  give(bytes: number): void {
    this.used -= bytes
    this.grant()
  }

  private grant(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.bytes)) {
      const waiter = this.queue.shift()!
      this.used += waiter.bytes
      waiter.granted()
    }
  }
}

/**
 * The body budget of the port a request arrived on. A service rather than an option of the app: the
 * same app serves in process, where bodies are web streams already in memory and no budget applies.
 */
export class Budget extends Context.Tag("@community-api/server/internal/body/Budget")<Budget, BodyBudget>() {}

interface Collected {
  parts: Array<Uint8Array>
  size: number
}

/** The bytes collected, or `"tooLarge"` past `maxBodyBytes`. */
const assemble = (acc: Collected): Uint8Array | "tooLarge" => {
  if (acc.size > maxBodyBytes) return "tooLarge"
  if (acc.parts.length === 1) return acc.parts[0]!
  const out = new Uint8Array(acc.size)
  let offset = 0
  for (const part of acc.parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** A Node.js readable (the request of a real port), read directly rather than through a `Stream`. */
interface NodeReadable {
  on(event: string, listener: (...args: Array<any>) => void): unknown
  off(event: string, listener: (...args: Array<any>) => void): unknown
  read(): unknown
  readonly readableLength: number
  readonly readableEnded: boolean
}

const isNodeReadable = (source: unknown): source is NodeReadable =>
  typeof source === "object" && source !== null && typeof (source as NodeReadable).on === "function" &&
  typeof (source as NodeReadable).off === "function" && typeof (source as NodeReadable).read === "function" &&
  typeof (source as NodeReadable).readableLength === "number" &&
  typeof (source as NodeReadable).readableEnded === "boolean"

/**
 * `collect` for a Node.js request: the same bounds and failures, pulled from the request's own buffer
 * (`readable` and `read()`) rather than pushed by `data` events. Bytes are taken out of that buffer
 * only once the budget has room for them: a body that waits leaves what it has in the request, whose
 * stream then stops reading its socket, so it holds one read of the socket and nothing more (`data`
 * events would hand over every chunk at once, and the paused request would then read one more).
 */
const collectNode = (
  source: NodeReadable,
  budget: BodyBudget | undefined
): Effect.Effect<Uint8Array | "tooLarge", string> =>
  Effect.async((resume) => {
    const acc: Collected = { parts: [], size: 0 }
    /** Bytes of the budget this body holds. */
    let charged = 0
    let waiting: Waiter | undefined
    const release = () => {
      if (waiting !== undefined) {
        const waiter = waiting
        waiting = undefined
        budget?.cancel(waiter)
      }
      if (charged > 0) {
        budget?.give(charged)
        charged = 0
      }
    }
    /** Takes budget for holding `size` bytes past the free ones; false when it has to wait for it. */
    const settle = (size: number): boolean => {
      const owed = size - freeBodyBytes - charged
      if (budget === undefined || owed <= 0) return true
      if (budget.take(owed)) {
        charged += owed
        return true
      }
      waiting = budget.wait(owed, () => {
        waiting = undefined
        charged += owed
        pull()
      })
      return false
    }
    /** Takes what the request has buffered, as far as the budget allows; `readable` calls again. */
    const pull = () => {
      while (waiting === undefined) {
        const buffered = source.readableLength
        // A body past the bound is drained without the budget: none of it is kept.
        if (buffered > 0 && acc.size + buffered <= maxBodyBytes && !settle(acc.size + buffered)) return
        // `null` once the buffer is empty: the request reads its socket again, and ends with `end`.
        const chunk = source.read() as Uint8Array | null
        if (chunk === null) return
        acc.size += chunk.length
        if (acc.size <= maxBodyBytes) acc.parts.push(chunk)
        else if (acc.parts.length > 0) {
          // Too large: drained from here on, nothing held.
          acc.parts = []
          release()
        }
      }
    }
    const finish = (outcome: Effect.Effect<Uint8Array | "tooLarge", string>) => {
      stop()
      release()
      resume(outcome)
    }
    const onEnd = () => finish(Effect.succeed(assemble(acc)))
    const onError = () => {
      const empty = acc.size === 0 && source.readableLength === 0
      // Given back now, not once the request's fiber next runs (a thousand may wait for their turn).
      acc.parts = []
      finish(empty ? Effect.succeed(new Uint8Array(0)) : Effect.fail(Texts.unreadableBody))
    }
    const onClose = () => {
      if (!source.readableEnded) onError()
    }
    const stop = () => {
      source.off("readable", pull)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    source.on("readable", pull)
    source.on("end", onEnd)
    source.on("error", onError)
    source.on("close", onClose)
    return Effect.sync(() => {
      stop()
      release()
    })
  })

/**
 * Reads the whole body, keeping at most `maxBodyBytes + 1` bytes: a larger body is drained, never
 * held, so memory stays flat and the connection stays usable for the answer. A failure before the
 * first byte is an empty body (an in-process request with no body has no stream).
 */
export const collect = (
  request: HttpServerRequest.HttpServerRequest,
  budget: BodyBudget | undefined
): Effect.Effect<Uint8Array | "tooLarge", string> => {
  if (isNodeReadable(request.source)) return collectNode(request.source, budget)
  const acc: Collected = { parts: [], size: 0 }
  return request.stream.pipe(
    Stream.runForEach((chunk) =>
      Effect.sync(() => {
        if (acc.size <= maxBodyBytes) acc.parts.push(chunk)
        acc.size += chunk.length
      })
    ),
    Effect.catchAll(() => acc.size === 0 ? Effect.void : Effect.fail(Texts.unreadableBody)),
    Effect.map(() => assemble(acc))
  )
}
