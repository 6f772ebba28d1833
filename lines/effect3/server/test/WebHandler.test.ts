/**
 * The server as a web-standard handler, its time given from outside: driven as a runtime other than
 * Effect would drive it, with the core's manual clock and nothing of Effect in this file.
 */
import * as Clock from "@community-api/core/Clock"
import { describe, expect, it, vi } from "vitest"
import { DemoFixture, ReferenceServer } from "../src/index.js"

const base = "http://reference.local/external-api/v2"

/** Wednesday 4 June 2025, 09:00:00.000 UTC: the start of a minute, so the minute ends a minute later (L4). */
const start = Date.UTC(2025, 5, 4, 9, 0, 0)

const post = (path: string, params: Record<string, unknown>, init: RequestInit = {}) =>
  new Request(`${base}/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" },
    body: JSON.stringify(params),
    ...init
  })

const control = (path: string, body: unknown) =>
  new Request(`http://reference.local/_sandbox/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${ReferenceServer.demoControlToken}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })

let names = 0

/** One creation in the demo owner's main community. */
const createVariable = () =>
  post("vars/create", { ...DemoFixture.mainCommunity, title: "Переменная", name: `web_${++names}` })

const answerOf = async (response: Promise<Response>) => {
  const answered = await response
  expect(answered.status).toBe(200)
  return await answered.json() as { readonly status: string; readonly error_code?: number; readonly error?: string }
}

/** Waits until the server has scheduled `count` waits on the clock: the request reached its latency. */
const scheduled = (clock: Clock.ManualClock, count: number) =>
  vi.waitFor(() => expect(clock.pending()).toBe(count), { timeout: 10_000, interval: 5 })

describe("the web handler with a clock given from outside", () => {
  it("L2 L4 20 creations a minute, the 21st refused with 5, and one again once the manual clock moves a minute", async () => {
    const clock = Clock.manual(start)
    const handler = ReferenceServer.toWebHandler({ clock })
    for (let i = 0; i < 20; i++) expect((await answerOf(handler(createVariable()))).status).toBe("ok")
    expect(await answerOf(handler(createVariable()))).toEqual({
      status: "error",
      error: "Слишком много созданий: не более 20 в минуту",
      error_code: 5
    })
    clock.advance(59_999)
    expect((await answerOf(handler(createVariable()))).error_code).toBe(5)
    clock.advance(1)
    expect((await answerOf(handler(createVariable()))).status).toBe("ok")
  })

  it("injected latency waits on the given clock, and an aborted request cancels its wait", async () => {
    const clock = Clock.manual(start)
    const handler = ReferenceServer.toWebHandler({ clock })
    expect((await answerOf(handler(control("faults", { latency: { fixed: 5000 } })))).status).toBe("ok")
    let settled = false
    const answer = handler(post("users/me", {})).finally(() => {
      settled = true
    })
    await scheduled(clock, 1)
    clock.advance(4999)
    expect(clock.pending()).toBe(1)
    expect(settled).toBe(false)
    clock.advance(1)
    expect(await answerOf(answer)).toMatchObject({ status: "ok", response: { user_id: DemoFixture.userIds.owner } })

    const aborted = new AbortController()
    const abandoned = handler(post("users/me", {}, { signal: aborted.signal }))
    await scheduled(clock, 1)
    aborted.abort()
    expect((await abandoned).type).toBe("error")
    expect(clock.pending()).toBe(0)
  })

  it("a dropped connection answers the web's network error; the server goes on answering", async () => {
    const handler = ReferenceServer.toWebHandler({
      clock: Clock.manual(start),
      faults: { dropConnection: { next: 1 } }
    })
    const dropped = await handler(post("users/me", {}))
    expect(dropped.type).toBe("error")
    expect((await answerOf(handler(post("users/me", {})))).status).toBe("ok")
  })

  it("C4 V3 an unknown section gets error 1 in an HTTP 200, as from every other seam", async () => {
    const handler = ReferenceServer.toWebHandler({ clock: Clock.manual(start) })
    expect((await answerOf(handler(post("nothing/here", {})))).error_code).toBe(1)
  })
})
