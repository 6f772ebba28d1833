/** A running `redis-server` (see `redis.mjs`). */
export interface RedisServer {
  readonly port: number
  /** `redis://127.0.0.1:PORT`. */
  readonly url: string
  /** Stops it: SIGTERM, then SIGKILL after 5 s. */
  readonly stop: () => Promise<void>
}

/** The path of `redis-server`, installed first when missing and possible; throws with one line otherwise. */
export declare const ensureRedisServer: () => string

/** A free TCP port on the loopback interface. */
export declare const freePort: () => Promise<number>

/** Starts a `redis-server` on a free loopback port (or on `options.port`), without persistence. */
export declare const startRedisServer: (options?: { readonly port?: number }) => Promise<RedisServer>
