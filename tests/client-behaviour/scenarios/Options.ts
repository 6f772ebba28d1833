/**
 * Every option is checked where it is given, by the core's rules (`OptionRules`): the client's
 * (`make`, `layerConfig`), the limiters' (`Pacing.layer`, `CreationQuota.layer`) and their Redis
 * stores' (`layerRedis`, `layerRedisConfig`). A value that cannot work, of the right type or not, is
 * refused at once with `InvalidConfig`, naming the option and what it takes, before anything is sent or
 * connected; never taken silently for something else (a zero lease that switches pacing off, a
 * negative timeout read as zero, an unknown `onUnavailable` read as `"fail"`). A Redis database that
 * does not exist makes the store unavailable (`LimiterUnavailable`), not database 0.
 */
import type { Line, OptionsTarget, Outcome } from "../src/Driver.js"
import { freshPrefix, withRedis } from "../src/Redis.js"
import { assert, failed, scenario, succeeded, suite } from "../src/Scenario.js"

const token = "thp_fake-secret-token-0123456789"

/** `{ $millis }`: the line's `Duration.millis`. */
const millis = (value: number) => ({ $millis: value })

/** The line's `InvalidConfig` a making died with, naming `option`, its reason matching `reason`. */
const refused = (line: Line, outcome: Outcome, option: string, reason: RegExp) => {
  assert.equal(outcome._tag, "Defect", `the making ${outcome._tag}, where a refusal of ${option} was due`)
  const error = (outcome as { readonly defect: { readonly [field: string]: unknown } }).defect
  assert.ok(line.isClientError(error, "InvalidConfig"), String(error))
  assert.equal(error["option"], option, String(error["message"]))
  assert.match(String(error["reason"]), reason)
  assert.ok(String(error["message"]).includes(`${option} is refused: `), String(error["message"]))
  assert.ok(!String(error["message"]).includes(token), "the token is never shown")
}

/** Every case refused as `option` by each of `targets`. */
const refusedBy = async (
  line: Line,
  targets: ReadonlyArray<OptionsTarget>,
  cases: ReadonlyArray<readonly [option: string, value: unknown, reason: RegExp]>
) => {
  for (const target of targets) {
    for (const [option, value, reason] of cases) {
      refused(line, await line.tryOptions(target, { [option]: value }), option, reason)
    }
  }
}

const greaterThanZero = /^must be a duration greater than zero/

export default suite("Options", [
  scenario(
    "the client's options are refused when it is made, in code or through Config, naming the option and what it takes",
    async (line) => {
      await refusedBy(line, ["client", "clientConfig"], [
        // Effect 3 reads a negative duration as zero: either way refused, never a 0 ms timeout.
        ["timeout", millis(-5000), /^must be a duration greater than zero, not (-5000|0) millis$/],
        ["timeout", "10s", /^must be a duration greater than zero \(.*\), not "10s"$/],
        ["timeout", millis(0), greaterThanZero],
        ["deadline", millis(0), greaterThanZero],
        ["maxResponseBytes", 0, /^must be a whole number from 1 to \d+, not 0$/],
        ["maxResponseBytes", "16MiB", /not "16MiB"$/],
        ["auth", "query", /^must be "header" or "body", not "query"$/],
        ["onCreationLimit", "queue", /^must be "wait" or "fail", not "queue"$/],
        ["lane", "bulk", /^must be "interactive" or "batch", not "bulk"$/],
        ["userKey", 42, /^must be a text, not 42$/]
      ])
      // The retry policy's count of retries after error 5.
      refused(
        line,
        await line.tryOptions("client", { retry: { limitRetries: -1 } }),
        "retry.limitRetries",
        /not -1$/
      )
      // What a working client takes is taken.
      await succeeded(line.tryOptions("client", { timeout: "10 seconds", deadline: millis(60_000), lane: "batch" }))
      await succeeded(line.tryOptions("clientConfig", { timeout: millis(1), maxResponseBytes: 1024 }))
    }
  ),

  scenario(
    "a token that is empty, or not Redacted, is refused when the client is made, and never shown",
    async (line) => {
      refused(line, await line.tryOptions("client", { token }), "token", /^must be Redacted .*, not a plain string$/)
      refused(line, await line.tryOptions("client", { token: undefined }), "token", /not missing$/)
      for (const blank of ["", "  "]) {
        refused(
          line,
          await line.tryOptions("client", { token: { $redacted: blank } }),
          "token",
          /^must not be empty: the API refuses every call without a token$/
        )
      }
    }
  ),

  scenario(
    "L1 a pacing limit above the API's 30 a second is refused: it cannot work, the server answers error 5",
    async (line) => {
      const aboveTheApi = /^must be a whole number from 1 to 30 \(the API allows 30 requests a second .*\), not 300$/
      await refusedBy(line, ["pacing", "pacingRedis", "pacingRedisConfig"], [
        ["limit", 300, aboveTheApi],
        ["limit", 0, /not 0$/]
      ])
      await refusedBy(line, ["pacing", "pacingRedis"], [
        ["window", millis(0), greaterThanZero],
        ["margin", "20ms", /^must be a duration of zero or more .*, not "20ms"$/],
        ["hold", "never", /^must be "learned" or "safe", not "never"$/]
      ])
      await succeeded(line.tryOptions("pacing", { limit: 30, margin: millis(0), hold: "safe" }))
    }
  ),

  scenario("L2 a creation quota above the API's 20 a minute or 200 a day is refused", async (line) => {
    await refusedBy(line, ["quota", "quotaRedis", "quotaRedisConfig"], [
      ["perMinute", 21, /^must be a whole number from 1 to 20 \(the API allows 20 creations a minute\), not 21$/],
      ["perDay", 201, /^must be a whole number from 1 to 200 \(the API allows 200 creations a day\), not 201$/]
    ])
    await succeeded(line.tryOptions("quota", { perMinute: 20, perDay: 200 }))
  }),

  scenario(
    "L1 a zero lease, or one too short for its renewals, is refused by Pacing.layerRedis and layerRedisConfig, where it let the pacing slip",
    async (line) => {
      await refusedBy(line, ["pacingRedis", "pacingRedisConfig"], [
        ["lease", millis(0), /^must be a duration greater than zero, not 0 millis$/],
        [
          "lease",
          millis(2999),
          /^must be at least 3 times the store's timeout \(3000 ms with a timeout of 1000 ms: .*\), not 2999 ms$/
        ],
        ["lease", millis(-1), /^must be a duration greater than zero, not (-1|0) millis$/],
        ["lease", "forever", /not "forever"$/]
      ])
    }
  ),

  scenario(
    "the Redis stores' options are refused by layerRedis and layerRedisConfig of both limiters, before connecting",
    async (line) => {
      const stores: ReadonlyArray<OptionsTarget> = [
        "pacingRedis",
        "pacingRedisConfig",
        "quotaRedis",
        "quotaRedisConfig"
      ]
      await refusedBy(line, stores, [
        ["timeout", millis(-5000), /^must be a duration greater than zero, not (-5000|0) millis$/],
        ["onUnavailable", "ignore", /^must be "fail" or "fallback", not "ignore"$/],
        ["prefix", 5, /^must be a text, not 5$/],
        [
          "url",
          "http://:s3cret@127.0.0.1:6390",
          /^must be a URL of redis:, rediss:, redis\+cluster:, rediss\+cluster: \(.*\), not one of http:$/
        ],
        ["url", "127.0.0.1:6390", /not a text without one$/],
        ["url", "redis://127.0.0.1:6390/cache", /its path names a database by its number/]
      ])
      await refusedBy(line, ["pacingRedis", "pacingRedisConfig"], [
        ["interactiveShare", 1.5, /^must be a number from 0 to 1, not 1.5$/]
      ])
      // A Redis URL given Redacted is read out of it; never shown.
      const outcome = await line.tryOptions("pacingRedis", { url: { $redacted: "http://:s3cret@127.0.0.1:6390" } })
      refused(line, outcome, "url", /not one of http:$/)
      assert.ok(!String((outcome as { readonly cause?: string }).cause).includes("s3cret"))
    }
  ),

  scenario(
    "L1 a Redis database that does not exist makes the store unavailable, not database 0; one that exists is used",
    withRedis(async (server, line) => {
      const redis = await line.redis()
      const prefix = freshPrefix()
      const settings = { prefix, limit: 3, windowMillis: 1000, marginMillis: 20 }
      const missing = await redis.pacing({ ...settings, url: `${server.url}/99` })
      const error = await failed(missing.withPermit("u"))
      assert.equal(error._tag, "LimiterUnavailable")
      assert.match(String(error["reason"]), /database 99 of the URL cannot be selected: ERR DB index is out of range/)
      const quota = await redis.quota({ prefix, url: `${server.url}/99` })
      assert.equal((await failed(quota.acquire("u", "vars/create", "fail")))._tag, "LimiterUnavailable")
      // Nothing was taken in database 0.
      assert.equal((await (await redis.pacing({ ...settings, url: server.url })).budget("u")).used, 0)
      // Database 1 exists: its permits are its own.
      const one = await redis.pacing({ ...settings, url: `${server.url}/1` })
      await succeeded(one.withPermit("u"))
      assert.equal((await one.budget("u")).used, 1)
      assert.equal((await (await redis.pacing({ ...settings, url: server.url })).budget("u")).used, 0)
    })
  )
])
