/**
 * The two stores of either line's `RedisStore` as data: the limiter each serves, the rules of its
 * options and its settings with their defaults.
 */
import { describe, expect, it } from "vitest"
import type * as OptionRules from "../src/OptionRules.js"
import type * as RedisCounts from "../src/RedisCounts.js"
import type * as RedisStoreOptions from "../src/RedisStoreOptions.js"
import * as RedisStores from "../src/RedisStores.js"

const reading: OptionRules.Reading = {
  millis: (given) => typeof given === "number" ? given : undefined,
  secret: () => undefined
}

describe("RedisStores", () => {
  it("L1 the pacing permits: the store's options and the pacing's limit are checked; the lease given or 10 s", () => {
    const { permits } = RedisStores
    expect(permits.limiter).toBe("pacing")
    expect(permits.refusal({ url: "redis://localhost:6379", limit: 10 } as never, reading)).toBeUndefined()
    expect(permits.refusal({ url: "redis://localhost:6379", limit: 31 } as never, reading)?.option).toBe("limit")
    expect(permits.refusal({ url: "http://localhost" } as never, reading)?.option).toBe("url")
    expect(permits.settings({ limit: 10 }, undefined)).toEqual({ limit: 10, leaseMillis: 10_000, kept: 2 })
    expect(permits.settings({ interactiveShare: 0 }, 3_000)).toEqual({ limit: 30, leaseMillis: 3_000, kept: 0 })
  })

  it("L1 the creation counts: the store's options and the quota are checked; the API's quota by default", () => {
    const { counts } = RedisStores
    expect(counts.limiter).toBe("creation quota")
    expect(counts.refusal({ url: "redis://localhost:6379", perMinute: 5 } as never, reading)).toBeUndefined()
    expect(counts.refusal({ url: "redis://localhost:6379", perDay: 1_000 } as never, reading)?.option).toBe("perDay")
    expect(counts.settings({ perMinute: 5 }, undefined)).toMatchObject({ perMinute: 5, perDay: 200 })
  })
})

/** A synchronous effect: run, it gives its value or fails with the store's error. */
type Sync<A> = () => { readonly ok: true; readonly value: A } | { readonly ok: false; readonly error: string }
interface F extends RedisCounts.TypeLambda {
  readonly type: Sync<this["A"]>
}

/** A line over synchronous effects, whose module loads when `loads` and whose steps are logged. */
const lineOf = (loads: boolean, log: Array<string>): RedisStores.Line<F, string, string, string, string> => ({
  reading,
  refused: (refusal) => () => {
    throw new Error(`refused ${refusal.option}`)
  },
  secret: (url) => `secret ${url}`,
  load: (why) => () => loads ? { ok: true, value: "module" } : { ok: false, error: why("missing").store },
  connect: (module, options) => () => {
    log.push(`connect ${module} ${options.url} ${options.prefix} ${options.timeoutMillis}`)
    return { ok: true, value: "connection" }
  },
  suspend: (make) => () => make()(),
  matchEffect: (effect, onFailure, onSuccess) => () => {
    const result = effect()
    return result.ok ? onSuccess(result.value)() : onFailure(result.error)()
  },
  flatMap: (effect, f) => () => {
    const result = effect()
    return result.ok ? f(result.value)() : result
  },
  map: (effect, f) => () => {
    const result = effect()
    return result.ok ? { ok: true, value: f(result.value) } : result
  },
  fail: (error) => () => ({ ok: false, error }),
  warnOnce: (error) => () => {
    log.push(`warn ${error}`)
    return { ok: true, value: undefined }
  }
})

const parts: RedisStores.Parts<F, string, string, RedisStoreOptions.Permits, string> = {
  redis: (module, connection, settings) => () => ({
    ok: true,
    value: `${module}: ${settings.limit} over ${connection}`
  }),
  memory: (settings) => `memory ${settings.limit}`,
  fallback: (primary, memory) => `${primary} or ${memory}`
}

/** The pacing permits' store, of the options every store takes and the pacing's own. */
const permitsOf = (line: RedisStores.Line<F, string, string, string, string>) =>
  RedisStores.store(
    line,
    RedisStores.permits as RedisStores.Kind<
      RedisStores.Given & { readonly limit?: number | undefined },
      RedisStoreOptions.Permits
    >,
    parts
  )

describe("RedisStores.store", () => {
  it("L1 a store is refused at once, built over Redis, or with memory behind it as its options say", () => {
    const log: Array<string> = []
    const make = permitsOf(lineOf(true, log))
    expect(() => make({ url: "http://localhost", limit: 10 })()).toThrow("refused url")
    expect(make({ url: "redis://localhost:6379", limit: 10, timeout: 300 })()).toEqual({
      ok: true,
      value: "module: 10 over connection"
    })
    expect(log).toEqual(["connect module secret redis://localhost:6379 community-api: 300"])
    expect(make({ url: "redis://localhost:6379", limit: 10, onUnavailable: "fallback" })()).toEqual({
      ok: true,
      value: "module: 10 over connection or memory 10"
    })
  })

  it("L1 without the Redis module a store fails closed, or is this process's memory after the one warning", () => {
    const log: Array<string> = []
    const make = permitsOf(lineOf(false, log))
    // The store is named without the URL's password.
    expect(make({ url: "redis://:hunter2@localhost:6379" })()).toEqual({ ok: false, error: "redis://localhost:6379" })
    expect(make({ url: "redis://localhost:6379", onUnavailable: "fallback" })()).toEqual({
      ok: true,
      value: "memory 30"
    })
    expect(log).toEqual(["warn redis://localhost:6379"])
  })
})
