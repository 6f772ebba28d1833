/**
 * The Redis store of the limiters (see `store.ts`), over `ioredis`. This module is imported only by
 * `Pacing.layerRedis` and `CreationQuota.layerRedis`, dynamically, so that a program that never asks
 * for Redis never loads it or `ioredis`.
 *
 * Every decision is one Lua script, run atomically by Redis on its own clock (`TIME`):
 *
 * - Pacing, per user: a sorted set of the permits in flight, scored by when their lease lapses (now +
 *   lease at the take, pushed back by a renewal every third of the lease while the request is in
 *   flight), and a sorted set of the permits given back, scored by when they come back (the hold of
 *   `pacingRule.ts`: `max(answer + afterAnswer, take + afterTake)`, both on the Redis clock; the take's
 *   time is part of the permit's name). A take drops what has lapsed or come back and, unless the user
 *   is blocked, grants as many permits as this process's waiters ask for while fewer than `limit` are
 *   held; it says how long the waiters left should wait. A process that dies stops renewing, so its
 *   permits lapse within the lease.
 * - Creations, per user: one hash of the counts of the current calendar minute and day (the fields of
 *   `Limits.CreationCount`), with the windows computed from the Redis clock and the constants of
 *   `Limits`, kept until the day ends.
 *
 * Times in the pacing scripts are microseconds (Redis's `TIME` has them; a Lua number holds them
 * exactly), in the creation script milliseconds as in `Limits`.
 */
import { Limits } from "@community-api/schema"
import { Deferred, Duration, Effect, Exit, FiberId, Random, Redacted } from "effect"
import type { Scope } from "effect"
import { Redis } from "ioredis"
import * as ClientError from "../ClientError.js"
import type * as PacingRule from "./pacingRule.js"
import * as Shared from "./shared.js"
import type * as Store from "./store.js"

/** Reads the Redis clock, in microseconds since the epoch. */
const nowMicros = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
`

/** An integer as Lua would print it without an exponent, for scores and values. */
const int = `local function int(x) return string.format('%.0f', x) end
`

/**
 * Takes up to `count` permits at once (one for each fiber of this process waiting for one): first the
 * free ones, then those given back that come back within `lead`, each reserved from the moment it
 * comes back (its waiter sleeps until then), so that the round trip to Redis is not between a permit's
 * return and its next request. KEYS: in flight, given back, blocked. ARGV: limit, lease (µs), a unique
 * prefix of the permits' names, the longest wait while permits are in flight (µs: one of them may
 * come back early when it is given back), count, lead (µs). Answers `{wait, name, delay, name, delay…}`
 * in µs: each permit with how long until it may be used, and how long the waiters left should wait
 * before asking again (0 when none is left).
 */
const takePermits = nowMicros + int + `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now))
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', int(now))
local blocked = tonumber(redis.call('GET', KEYS[3]) or '0')
if blocked > now then return {blocked - now} end
local lease = tonumber(ARGV[2])
local count = tonumber(ARGV[5])
local lead = tonumber(ARGV[6])
local reply = {0}
local granted = 0
local function grant(at)
  granted = granted + 1
  local name = ARGV[3] .. '.' .. granted .. ':' .. int(at)
  redis.call('ZADD', KEYS[1], int(at + lease), name)
  reply[#reply + 1] = name
  reply[#reply + 1] = at - now
end
local free = tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1]) - redis.call('ZCARD', KEYS[2])
for _ = 1, math.min(free, count) do grant(now) end
if granted < count then
  local soon = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', int(now + lead), 'WITHSCORES', 'LIMIT', 0, count - granted)
  for i = 1, #soon, 2 do
    redis.call('ZREM', KEYS[2], soon[i])
    grant(tonumber(soon[i + 1]))
  end
end
if granted > 0 then redis.call('PEXPIRE', KEYS[1], math.ceil((lead + lease) / 1000) + 1000) end
if granted < count then
  local wait = tonumber(ARGV[4])
  local inFlight = redis.call('ZCARD', KEYS[1])
  local back = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')[2]
  if back and (inFlight == 0 or tonumber(back) - lead - now < wait) then wait = tonumber(back) - lead - now end
  local lapse = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
  if lapse and tonumber(lapse) - now < wait then wait = tonumber(lapse) - now end
  reply[1] = math.max(wait, 1000)
end
return reply
`

/**
 * Keeps this process's permits in flight for another lease, but not one already given back. KEYS: in
 * flight, given back. ARGV: lease (µs), names.
 */
const renewPermits = nowMicros + int + `
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do
  if not redis.call('ZSCORE', KEYS[2], ARGV[i]) then redis.call('ZADD', KEYS[1], int(now + lease), ARGV[i]) end
end
redis.call('PEXPIRE', KEYS[1], math.ceil(lease / 1000) + 1000)
return 1
`

/**
 * Gives a permit back: held until `max(now + afterAnswer, takenAt + afterTake)`. KEYS: in flight,
 * given back. ARGV: name, afterAnswer (µs), afterTake (µs).
 */
const releasePermit = nowMicros + int + `
redis.call('ZREM', KEYS[1], ARGV[1])
local takenAt = tonumber(string.match(ARGV[1], ':(%d+)$'))
local back = math.max(now + tonumber(ARGV[2]), takenAt + tonumber(ARGV[3]))
if back > now then
  redis.call('ZADD', KEYS[2], int(back), ARGV[1])
  local keep = math.ceil((back - now) / 1000) + 1000
  if redis.call('PTTL', KEYS[2]) < keep then redis.call('PEXPIRE', KEYS[2], keep) end
end
return 1
`

/** Blocks every take of the user for a while. KEYS: blocked. ARGV: how long (µs). */
const blockUser = nowMicros + int + `
local span = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if now + span > current then
  redis.call('SET', KEYS[1], int(now + span), 'PX', math.ceil(span / 1000) + 1000)
end
return 1
`

/**
 * Everything the creation counts do, as `Limits` does it in memory. KEYS: the user's counts. ARGV:
 * mode (`take`, `retake`, `refund`, `exhaust`, `usedUp`), perMinute, perDay, minuteMillis, dayMillis,
 * dayStartOffsetMillis, then the creation's time (retake, refund) or the window (exhaust).
 */
const countCreations = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local perMinute, perDay = tonumber(ARGV[2]), tonumber(ARGV[3])
local minuteMillis, dayMillis, offset = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local function minuteOf(at) return math.floor(at / minuteMillis) end
local function dayOf(at) return math.floor((at - offset) / dayMillis) end
local minute, day = minuteOf(now), dayOf(now)
local nextMinute, nextDay = (minute + 1) * minuteMillis, (day + 1) * dayMillis + offset
local stored = redis.call('HMGET', KEYS[1], 'minute', 'inMinute', 'day', 'inDay')
local inMinute = (tonumber(stored[1]) == minute) and tonumber(stored[2]) or 0
local inDay = (tonumber(stored[3]) == day) and tonumber(stored[4]) or 0
local function save()
  redis.call('HSET', KEYS[1], 'minute', minute, 'inMinute', inMinute, 'day', day, 'inDay', inDay)
  redis.call('PEXPIRE', KEYS[1], nextDay - now + minuteMillis)
end
local function usedUp()
  if inDay >= perDay then return 'day' end
  if inMinute >= perMinute then return 'minute' end
  return ''
end
local function refund(taken)
  if minuteOf(taken) == minute then inMinute = math.max(0, inMinute - 1) end
  if dayOf(taken) == day then inDay = math.max(0, inDay - 1) end
end
local function take()
  local window = usedUp()
  if window == 'day' then return {0, 'day', nextDay, now} end
  if window == 'minute' then return {0, 'minute', nextMinute, now} end
  inMinute = inMinute + 1
  inDay = inDay + 1
  save()
  return {1, now}
end
local mode = ARGV[1]
if mode == 'take' then return take() end
if mode == 'retake' then
  local taken = tonumber(ARGV[7])
  if minuteOf(taken) >= minute then return {1, taken} end
  refund(taken)
  local verdict = take()
  if verdict[1] == 0 then save() end
  return verdict
end
if mode == 'refund' then
  refund(tonumber(ARGV[7]))
  save()
  return {1}
end
if mode == 'exhaust' then
  if ARGV[7] == 'day' then inDay = math.max(inDay, perDay) else inMinute = math.max(inMinute, perMinute) end
  save()
  return {1}
end
return {usedUp()}
`

const scripts = {
  communityApiTakePermits: { numberOfKeys: 3, lua: takePermits },
  communityApiRenewPermits: { numberOfKeys: 2, lua: renewPermits },
  communityApiReleasePermit: { numberOfKeys: 2, lua: releasePermit },
  communityApiBlockUser: { numberOfKeys: 1, lua: blockUser },
  communityApiCountCreations: { numberOfKeys: 1, lua: countCreations }
} as const

type Script = keyof typeof scripts
type Reply = ReadonlyArray<number | string>

/** A connection to Redis with the scripts loaded. @internal */
export interface Connection {
  /** The store as errors name it, without credentials. */
  readonly store: string
  readonly prefix: string
  /** Runs a script; fails with `LimiterUnavailable` for `limiter` when Redis is not there or slow. */
  readonly run: (
    limiter: ClientError.LimiterUnavailable["limiter"],
    script: Script,
    keys: ReadonlyArray<string>,
    args: ReadonlyArray<string | number>
  ) => Effect.Effect<Reply, ClientError.LimiterUnavailable>
}

/** @internal */
export interface ConnectOptions {
  readonly url: Redacted.Redacted<string>
  readonly prefix: string
  readonly timeoutMillis: number
}

/**
 * Connects to Redis for the scope, and quits at its end. Never fails: when Redis cannot be reached the
 * client keeps trying to connect in the background, and each script fails at once meanwhile.
 *
 * @internal
 */
export const connect = (options: ConnectOptions): Effect.Effect<Connection, never, Scope.Scope> =>
  Effect.gen(function*() {
    const url = Redacted.value(options.url)
    const store = Shared.describeUrl(url)
    const scrub = Shared.scrubber(url)
    let lastError = "not connected yet"
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const redis = new Redis(url, {
          lazyConnect: true,
          // A command while disconnected fails at once instead of waiting in a queue: no request
          // waits on a store that is not there.
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          connectTimeout: options.timeoutMillis,
          commandTimeout: options.timeoutMillis,
          retryStrategy: (times) => Math.min(100 * times, 2_000)
        })
        // Without a listener the library prints every connection error; the calls report them.
        redis.on("error", (error: Error) => {
          lastError = scrub(error.message)
        })
        for (const [name, definition] of Object.entries(scripts)) redis.defineCommand(name, definition)
        return redis
      }),
      (redis) => Effect.promise(() => redis.quit().catch(() => redis.disconnect()))
    )
    // The first connection is waited for (within the timeout), so that the first calls do not fail
    // for a store that is merely still connecting.
    yield* Effect.promise(() => client.connect().catch(() => undefined))
    const unavailable = (limiter: ClientError.LimiterUnavailable["limiter"], reason: string) =>
      new ClientError.LimiterUnavailable({ limiter, store, reason: scrub(reason) })
    const call = client as unknown as Record<Script, (...args: ReadonlyArray<string | number>) => Promise<Reply>>
    return {
      store,
      prefix: options.prefix,
      run: (limiter, script, keys, args) =>
        client.status === "ready"
          ? Effect.tryPromise({
            try: () => call[script](...keys, ...args),
            catch: (error) => unavailable(limiter, error instanceof Error ? error.message : String(error))
          })
          : Effect.fail(unavailable(limiter, `${lastError} (connection ${client.status})`))
    }
  })

/** The keys of one user: a hash tag around the user key keeps them in one slot of a cluster. */
const keysOf = (prefix: string, user: string) => {
  const base = `${prefix}{${user}}`
  return {
    inFlight: `${base}:permits:in-flight`,
    given: `${base}:permits:given-back`,
    blocked: `${base}:blocked`,
    creations: `${base}:creations`
  }
}

const micros = (millis: number) => Math.ceil(millis * 1000)

/** The longest a waiter sleeps while permits are in flight: one may be given back with a short hold. */
const pollMillis = 50

/**
 * How far ahead a permit coming back is reserved for a waiter: more than a round trip to Redis and the
 * wake-up of a busy process. A permit reserved before another process blocked the user is used when it
 * comes back all the same (this process's own blocks hold for it).
 */
const leadMillis = 30

interface RedisPermit extends Store.Permit {
  readonly name: string
}

/** A permit granted to a waiter, and how long until it may be used (a permit reserved as it comes back). */
interface Granted {
  readonly permit: RedisPermit
  readonly delayMillis: number
}

/** This process's side of one user's permits. */
interface UserPermits {
  /** The fibers waiting for a permit, first come first served. */
  readonly waiters: Array<Deferred.Deferred<Granted, ClientError.LimiterUnavailable>>
  /** Whether a fiber is asking Redis for the waiters. */
  asking: boolean
  /** The names of this process's permits in flight (or reserved), renewed until given back. */
  readonly inFlight: Set<string>
  /** Until when this process blocked the user (the store's block holds for a permit reserved before it). */
  blockedUntil: number
}

/**
 * The pacing permits in Redis. In this process one fiber per user asks Redis, for as many permits as
 * fibers wait for one (which get them in the order they came), and sleeps until Redis says one may be
 * free; one fiber renews every permit of this process in flight. Both run in `scope`.
 *
 * @internal
 */
export const permitStore = (
  connection: Connection,
  options: { readonly limit: number; readonly leaseMillis: number }
): Effect.Effect<Store.PermitStore, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const users = new Map<string, UserPermits>()
    const permitsOf = (user: string) => {
      let permits = users.get(user)
      if (permits === undefined) {
        permits = { waiters: [], asking: false, inFlight: new Set(), blockedUntil: 0 }
        users.set(user, permits)
      }
      return permits
    }
    const processId = (yield* Random.nextInt).toString(36).replace("-", "")
    let calls = 0
    const run = (script: Script, keys: ReadonlyArray<string>, args: ReadonlyArray<string | number>) =>
      connection.run("pacing", script, keys, args)
    const lease = micros(options.leaseMillis)
    const giveBack = (user: string, name: string, hold: PacingRule.Hold) =>
      Effect.suspend(() => {
        permitsOf(user).inFlight.delete(name)
        const keys = keysOf(connection.prefix, user)
        // Not given back (Redis gone meanwhile), the permit lapses within the lease.
        return Effect.ignore(run("communityApiReleasePermit", [keys.inFlight, keys.given], [
          name,
          micros(hold.afterAnswerMillis),
          micros(hold.afterTakeMillis)
        ]))
      })
    /** A permit taken and not used: back when it would have come back anyway (its take, if reserved). */
    const unused: PacingRule.Hold = { afterAnswerMillis: 0, afterTakeMillis: 0 }

    // Every third of the lease, one call per user renews this process's permits in flight; a renewal
    // that fails is tried again at the next turn (the lease covers two that fail). A name leaves the
    // set before its release is sent, so no renewal sent after the release names it.
    yield* Effect.forkIn(
      Effect.forever(Effect.zipRight(
        Effect.sleep(Duration.millis(options.leaseMillis / 3)),
        Effect.forEach(users, ([user, permits]) => {
          if (permits.inFlight.size === 0) return Effect.void
          const keys = keysOf(connection.prefix, user)
          return Effect.ignore(
            run("communityApiRenewPermits", [keys.inFlight, keys.given], [lease, ...permits.inFlight])
          )
        }, { discard: true })
      )),
      scope
    )

    /** Asks Redis for the waiters of `user` until none is left; runs in `scope`. */
    const ask = (user: string, permits: UserPermits): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (permits.waiters.length === 0) {
          permits.asking = false
          return Effect.void
        }
        const keys = keysOf(connection.prefix, user)
        return run("communityApiTakePermits", [keys.inFlight, keys.given, keys.blocked], [
          options.limit,
          lease,
          `${processId}-${(calls++).toString(36)}`,
          micros(pollMillis),
          permits.waiters.length,
          micros(leadMillis)
        ]).pipe(
          Effect.matchEffect({
            // Fail closed: every waiter fails with the store's error.
            onFailure: (error) =>
              Effect.sync(() => {
                for (const waiter of permits.waiters.splice(0)) Deferred.unsafeDone(waiter, Effect.fail(error))
              }),
            onSuccess: ([wait, ...granted]) =>
              Effect.zipRight(
                Effect.forEach(Array.from({ length: granted.length / 2 }, (_, i) => i), (i) => {
                  const permit: RedisPermit = { user, name: String(granted[2 * i]) }
                  permits.inFlight.add(permit.name)
                  const waiter = permits.waiters.shift()
                  // Its waiter was interrupted meanwhile: not used, the permit goes back.
                  return waiter === undefined
                    ? giveBack(user, permit.name, unused)
                    : Deferred.succeed(waiter, { permit, delayMillis: Number(granted[2 * i + 1]) / 1000 })
                }, { discard: true }),
                permits.waiters.length > 0
                  ? Effect.sleep(Duration.millis(Math.ceil(Number(wait) / 1000)))
                  : Effect.void
              )
          }),
          Effect.zipRight(ask(user, permits))
        )
      })

    /** Waits until a granted permit may be used and this process's own block of the user is over. */
    const ready = (permits: UserPermits, delayMillis: number) =>
      Effect.zipRight(
        Effect.sleep(Duration.millis(delayMillis)),
        Effect.clockWith((clock) => {
          const now = clock.unsafeCurrentTimeMillis()
          return permits.blockedUntil > now ? Effect.sleep(Duration.millis(permits.blockedUntil - now)) : Effect.void
        })
      )

    return {
      take: (user) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.suspend(() => {
            const permits = permitsOf(user)
            const waiter = Deferred.unsafeMake<Granted, ClientError.LimiterUnavailable>(FiberId.none)
            permits.waiters.push(waiter)
            const asking = permits.asking ? Effect.void : Effect.suspend(() => {
              permits.asking = true
              // Forked from an uninterruptible region: made interruptible, so that the scope can end it.
              return Effect.forkIn(Effect.interruptible(ask(user, permits)), scope)
            })
            const granted = restore(Deferred.await(waiter)).pipe(
              Effect.onInterrupt(() =>
                Effect.suspend(() => {
                  const index = permits.waiters.indexOf(waiter)
                  if (index >= 0) return Effect.sync(() => permits.waiters.splice(index, 1))
                  // Granted as it was interrupted: not used, the permit goes back.
                  return Effect.flatMap(
                    Effect.exit(Deferred.await(waiter)),
                    (exit) => Exit.isSuccess(exit) ? giveBack(user, exit.value.permit.name, unused) : Effect.void
                  )
                })
              )
            )
            return Effect.zipRight(
              asking,
              Effect.flatMap(granted, ({ delayMillis, permit }) =>
                restore(ready(permits, delayMillis)).pipe(
                  Effect.onInterrupt(() => giveBack(user, permit.name, unused)),
                  Effect.as<Store.Permit>(permit)
                ))
            )
          })
        ),
      // Given back in a fiber of the store's scope, so that the caller's answer does not wait for Redis.
      release: (permit, hold) => {
        const { name, user } = permit as RedisPermit
        return Effect.asVoid(Effect.forkIn(giveBack(user, name, hold), scope))
      },
      block: (user, millis) =>
        Effect.zipRight(
          Effect.clockWith((clock) =>
            Effect.sync(() => {
              const permits = permitsOf(user)
              permits.blockedUntil = Math.max(permits.blockedUntil, clock.unsafeCurrentTimeMillis() + millis)
            })
          ),
          Effect.asVoid(run("communityApiBlockUser", [keysOf(connection.prefix, user).blocked], [micros(millis)]))
        )
    }
  })

/**
 * The creation counts in Redis.
 *
 * @internal
 */
export const countStore = (connection: Connection, settings: Limits.CreationSettings): Store.CountStore => {
  const count = (user: string, mode: string, extra: ReadonlyArray<string | number> = []) =>
    connection.run("creation quota", "communityApiCountCreations", [keysOf(connection.prefix, user).creations], [
      mode,
      settings.perMinute,
      settings.perDay,
      Limits.minuteMillis,
      Limits.dayMillis,
      Limits.dayStartOffsetMillis,
      ...extra
    ])
  const verdict = (reply: Reply): Store.Verdict =>
    reply[0] === 1
      ? { _tag: "Taken", at: Number(reply[1]) }
      : {
        _tag: "Exhausted",
        window: reply[1] === "day" ? "day" : "minute",
        resetsAt: Number(reply[2]),
        now: Number(reply[3])
      }
  return {
    take: (user) => Effect.map(count(user, "take"), verdict),
    retake: (user, taken) => Effect.map(count(user, "retake", [taken]), verdict),
    refund: (user, taken) => Effect.asVoid(count(user, "refund", [taken])),
    exhaust: (user, window) => Effect.asVoid(count(user, "exhaust", [window])),
    usedUp: (user) =>
      Effect.map(count(user, "usedUp"), ([window]) => window === "minute" || window === "day" ? window : undefined)
  }
}
