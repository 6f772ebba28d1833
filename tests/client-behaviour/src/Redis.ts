/**
 * A real `redis-server` for a scenario of the Redis store (`scripts/redis.mjs`), plain Node that both
 * lines share: started for the scenario on a free loopback port, stopped after it (once the worlds
 * that reach it are ended), and stopped (SIGSTOP) or continued at will.
 */
import { redisCommand } from "../../../scripts/redis-cli.mjs"
import { type RedisServer, startRedisServer } from "../../../scripts/redis.mjs"
import type { Call, Line } from "./Driver.js"

export type { RedisServer }
export { redisCommand }
export { freePort, startRedisServer } from "../../../scripts/redis.mjs"

/** A scenario's run against a `redis-server` of its own: it ends the line's worlds, then the server. */
export const withRedis = (run: (server: RedisServer, line: Line) => Promise<unknown>) => async (line: Line) => {
  const server = await startRedisServer()
  try {
    await run(server, line)
  } finally {
    await line.dispose()
    await server.stop()
  }
}

let prefixes = 0
/** A prefix of its own for each use, so that none sees another's permits or counts. */
export const freshPrefix = (name = "test") => `${name}-${++prefixes}-${Date.now()}:`

/** Waits `millis` in real time. */
export const sleep = (millis: number) => new Promise<void>((resolve) => setTimeout(resolve, millis))

/** The server at `port` stopped (SIGSTOP): continues it (SIGCONT) once. */
export const stall = async (port: number): Promise<() => void> => {
  const info = await redisCommand(port, "INFO", "server")
  const pid = Number(info.find((line) => line.startsWith("process_id:"))?.split(":")[1])
  if (!(pid > 0)) throw new Error(`no process id of the redis-server at ${port}`)
  process.kill(pid, "SIGSTOP")
  let resumed = false
  return () => {
    if (!resumed) process.kill(pid, "SIGCONT")
    resumed = true
  }
}

/** A call whose end can be polled. */
export interface Tracked<A> {
  readonly call: Call<A>
  readonly done: () => boolean
}

export const tracked = <A>(call: Call<A>): Tracked<A> => {
  let done = false
  void call.then(() => (done = true))
  return { call, done: () => done }
}
