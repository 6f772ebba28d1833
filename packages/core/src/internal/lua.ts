/**
 * The texts of the Lua scripts of the Redis store, byte for byte what every process of a user runs
 * (Redis knows a script by the SHA-1 of its text). `RedisScripts` names them and lays out their calls.
 *
 * @internal
 */

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
 * return and its next request. KEYS: in flight, given back, blocked, when an interactive call last
 * waited. ARGV: limit, lease (µs), a unique prefix of the permits' names, the longest wait while
 * permits are in flight (µs: one of them may come back early when it is given back), count, lead
 * (µs), how many of the count are interactive (served first), the permits kept for interactive calls,
 * the window (µs). Answers `{wait, name, delay, name, delay…}` in µs: each permit with how long until
 * it may be used, the interactive ones first, and how long the waiters left should wait before asking
 * again (0 when none is left).
 *
 * Lanes across processes: while an interactive call of the user waited within the last window (it
 * found no free permit), batch calls may hold at most `limit - kept` permits, and take none as it
 * comes back; otherwise they may take every permit, so that batch calls alone reach the full rate.
 */
export const takePermits = nowMicros + int + `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', int(now))
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', int(now))
local blocked = tonumber(redis.call('GET', KEYS[3]) or '0')
if blocked > now then return {blocked - now} end
local lease = tonumber(ARGV[2])
local count = tonumber(ARGV[5])
local lead = tonumber(ARGV[6])
local interactive = math.min(tonumber(ARGV[7]), count)
local window = tonumber(ARGV[9])
local reply = {0}
local granted = 0
local function grant(at)
  granted = granted + 1
  local name = ARGV[3] .. '.' .. granted .. ':' .. int(at)
  redis.call('ZADD', KEYS[1], int(at + lease), name)
  reply[#reply + 1] = name
  reply[#reply + 1] = at - now
end
local function soon(n)
  if n <= 0 then return end
  local back = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', int(now + lead), 'WITHSCORES', 'LIMIT', 0, n)
  for i = 1, #back, 2 do
    redis.call('ZREM', KEYS[2], back[i])
    grant(tonumber(back[i + 1]))
  end
end
local free = tonumber(ARGV[1]) - redis.call('ZCARD', KEYS[1]) - redis.call('ZCARD', KEYS[2])
local fromFree = math.min(free, interactive)
for _ = 1, fromFree do grant(now) end
if granted < interactive then
  redis.call('SET', KEYS[4], int(now), 'PX', math.ceil(2 * window / 1000))
  soon(interactive - granted)
end
local kept = 0
local waited = tonumber(redis.call('GET', KEYS[4]) or '0')
if waited > now - window then kept = tonumber(ARGV[8]) end
local batch = math.min(free - fromFree - kept, count - interactive)
for _ = 1, batch do grant(now) end
if kept == 0 and granted < count then soon(count - granted) end
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
export const renewPermits = nowMicros + int + `
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
export const releasePermit = nowMicros + int + `
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

/**
 * Gives back, unused, every permit that one take granted: those whose names start with the take's
 * prefix. A take whose reply never reached its process (it timed out on a stalled Redis, or the
 * connection failed) may still have run, or run later, granting permits that no waiter received;
 * nothing would renew or give them back, and they would be held for a whole lease. Sent on the same
 * connection after the take, it runs after it. Each permit is free at once, or, if the take reserved
 * it as it came back, from the time in its name (when it would have come back anyway). KEYS: in
 * flight, given back. ARGV: the take's name prefix. Answers `{returned}`: how many were given back.
 */
export const returnTake = nowMicros + int + `
local prefix = ARGV[1] .. '.'
local returned = 0
for _, name in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(name, 1, #prefix) == prefix then
    redis.call('ZREM', KEYS[1], name)
    returned = returned + 1
    local back = tonumber(string.match(name, ':(%d+)$'))
    if back > now then
      redis.call('ZADD', KEYS[2], int(back), name)
      local keep = math.ceil((back - now) / 1000) + 1000
      if redis.call('PTTL', KEYS[2]) < keep then redis.call('PEXPIRE', KEYS[2], keep) end
    end
  end
end
return {returned}
`

/** Blocks every take of the user for a while. KEYS: blocked. ARGV: how long (µs). */
export const blockUser = nowMicros + int + `
local span = tonumber(ARGV[1])
local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if now + span > current then
  redis.call('SET', KEYS[1], int(now + span), 'PX', math.ceil(span / 1000) + 1000)
end
return 1
`

/**
 * Reads, changing nothing, what is left of the rate window. KEYS: in flight, given back, blocked.
 * Answers `{inFlight, givenBack, nextBack, blockedUntil, now}` in µs: the permits in flight and given
 * back that still hold, when the first given back comes back (0 when none is), the end of a block (0
 * when none), the Redis time.
 */
export const readPermits = nowMicros + `
local inFlight = redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
local given = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. now, '+inf', 'WITHSCORES')
local nextBack = given[2] or '0'
local blocked = tonumber(redis.call('GET', KEYS[3]) or '0')
return {inFlight, #given / 2, nextBack, tostring(blocked), tostring(now)}
`

/**
 * Everything the creation counts do, as `Limits` does it in memory. KEYS: the user's counts. ARGV:
 * mode (`take`, `retake`, `refund`, `exhaust`, `usedUp`), perMinute, perDay, minuteMillis, dayMillis,
 * dayStartOffsetMillis, then the creation's time (retake, refund) or the window (exhaust).
 */
export const countCreations = `local t = redis.call('TIME')
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

/**
 * Reads, changing nothing, the creation counts of the current minute and day. KEYS: the user's counts.
 * ARGV: minuteMillis, dayMillis, dayStartOffsetMillis. Answers `{inMinute, inDay, now}` (now in ms).
 */
export const readCreations = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local minuteMillis, dayMillis, offset = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local stored = redis.call('HMGET', KEYS[1], 'minute', 'inMinute', 'day', 'inDay')
local inMinute = (tonumber(stored[1]) == math.floor(now / minuteMillis)) and tonumber(stored[2]) or 0
local inDay = (tonumber(stored[3]) == math.floor((now - offset) / dayMillis)) and tonumber(stored[4]) or 0
return {inMinute, inDay, now}
`
