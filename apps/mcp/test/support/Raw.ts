/**
 * The server as a peer that writes raw lines sees it: the compiled executable spawned with plain
 * pipes, lines written as they come (not JSON, too long, unknown methods), every line of standard
 * output read as JSON-RPC. Nothing of the SDK's client stands between, since it never sends a bad line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process"
import { bin, timeout } from "./Mcp.js"

/** A JSON-RPC message as read from the server. */
export interface Message {
  readonly jsonrpc: string
  readonly id?: string | number | null
  readonly result?: Record<string, unknown>
  readonly error?: { readonly code: number; readonly message: string }
  readonly method?: string
}

/** The environment of the test process without any of the server's own settings. */
const baseEnv = () =>
  Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("COMMUNITY_API_")))

/** A server process, started at once. */
export const start = (env: Record<string, string> = {}) => {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin], {
    env: { ...baseEnv(), ...env },
    stdio: "pipe"
  })
  const messages: Array<Message> = []
  /** Lines of standard output that are not JSON-RPC 2.0: each one a failure of the protocol. */
  const strays: Array<string> = []
  let stderr = ""
  let pending = ""
  const waiters = new Set<() => void>()
  child.stdout.on("data", (chunk: Buffer) => {
    pending += chunk.toString("utf8")
    for (let end = pending.indexOf("\n"); end !== -1; end = pending.indexOf("\n")) {
      const line = pending.slice(0, end)
      pending = pending.slice(end + 1)
      try {
        const message = JSON.parse(line) as Message
        if (message.jsonrpc === "2.0") messages.push(message)
        else strays.push(line)
      } catch {
        strays.push(line)
      }
    }
    for (const wake of waiters) wake()
  })
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)))

  /** Writes text as it is (a line needs its own newline). */
  const write = (text: string | Buffer) =>
    new Promise<void>((resolve, reject) => child.stdin.write(text, (error) => (error ? reject(error) : resolve())))

  /** Writes one message as a line. */
  const send = (message: unknown) => write(`${JSON.stringify(message)}\n`)

  /** The first message, from the `after`th on, that `predicate` takes; a bound on a hang only. */
  const next = (predicate: (message: Message) => boolean, after = 0) =>
    new Promise<Message>((resolve, reject) => {
      const look = () => {
        const found = messages.slice(after).find(predicate)
        if (found === undefined) return false
        waiters.delete(check)
        clearTimeout(guard)
        resolve(found)
        return true
      }
      const check = () => void look()
      const guard = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`no such message; seen: ${JSON.stringify(messages).slice(0, 2000)}\nstderr: ${stderr}`))
      }, timeout)
      waiters.add(check)
      look()
    })

  /** The answer to the request `id`. */
  const answer = (id: string | number | null, after = 0) =>
    next((message) => message.id === id && message.method === undefined, after)

  /** Sends a request and gives its answer. */
  const request = async (id: number | string, method: string, params: Record<string, unknown> = {}) => {
    const after = messages.length
    await send({ jsonrpc: "2.0", id, method, params })
    return answer(id, after)
  }

  /** `initialize` and `notifications/initialized`, as a client begins. */
  const initialize = async (protocolVersion = "2025-06-18") => {
    const answered = await request(0, "initialize", {
      protocolVersion,
      capabilities: {},
      clientInfo: { name: "raw-lines-test", version: "0.0.0" }
    })
    await send({ jsonrpc: "2.0", method: "notifications/initialized" })
    return answered
  }

  return {
    child,
    messages,
    strays,
    stderr: () => stderr,
    exited,
    write,
    send,
    next,
    answer,
    request,
    initialize,
    /** Ends standard input, as a client that goes away. */
    end: () => new Promise<void>((resolve) => child.stdin.end(resolve)),
    kill: () => child.kill("SIGKILL")
  }
}

/** The peak resident memory of a process so far, in bytes (Linux). */
export const peakMemory = async (pid: number): Promise<number> => {
  const { readFile } = await import("node:fs/promises")
  const status = await readFile(`/proc/${pid}/status`, "utf8")
  const match = /VmHWM:\s+(\d+) kB/.exec(status)
  if (match === null) throw new Error("no VmHWM in /proc status")
  return Number(match[1]) * 1024
}
