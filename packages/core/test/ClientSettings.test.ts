/**
 * A client's settings from its options (`ClientSettings`): the defaults both lines share, durations as
 * the line reads them, and the user its limits count.
 */
import { describe, expect, it } from "vitest"
import * as ClientSettings from "../src/ClientSettings.js"
import * as JsonBody from "../src/JsonBody.js"
import type * as OptionRules from "../src/OptionRules.js"
import * as UserKey from "../src/UserKey.js"

/** A line whose durations are seconds and whose secret is a box. */
const reading: OptionRules.Reading = {
  millis: (given) => typeof given === "number" ? given * 1000 : undefined,
  secret: (given) => typeof given === "object" && given !== null && "box" in given ? { text: given.box } : undefined
}

const base = { baseUrl: "https://host/external-api/v2", token: { box: "secret-token" } }

describe("ClientSettings", () => {
  it("a client with only its base URL and token: 30 s an attempt, 120 s a call, 16 MiB, waits for the minute", () => {
    expect(ClientSettings.of(base, reading)).toStrictEqual({
      timeoutMillis: 30_000,
      deadlineMillis: 120_000,
      maxResponseBytes: JsonBody.defaultMaxBytes,
      onCreationLimit: "wait",
      lane: undefined,
      user: UserKey.ofToken("secret-token")
    })
  })

  it("every option given is taken, its durations as the line reads them (an infinite one too)", () => {
    const settings = ClientSettings.of(
      { ...base, timeout: 5, deadline: Infinity, maxResponseBytes: 10, onCreationLimit: "fail", lane: "batch" },
      reading
    )
    expect(settings).toMatchObject({
      timeoutMillis: 5_000,
      deadlineMillis: Infinity,
      maxResponseBytes: 10,
      onCreationLimit: "fail",
      lane: "batch"
    })
  })

  it("L1 L2 the limits count per user: its key as given (not trimmed), else a key of the token, never the token", () => {
    expect(ClientSettings.of({ ...base, userKey: " alice " }, reading).user).toBe(" alice ")
    const keyed = ClientSettings.of(base, reading).user
    expect(keyed).not.toContain("secret-token")
    expect(ClientSettings.of({ ...base, token: { box: "secret-token" } }, reading).user).toBe(keyed)
  })
})
