/**
 * The sandbox's page (`/_sandbox/`) in a real browser: Debian's Chromium driven by `playwright-core`,
 * against the sandbox on a real port with a manual clock. The page is served without the control token
 * and under a strict policy; it asks for the token once and keeps it for the tab; its journal follows
 * the calls the test makes (it polls: the test never asks it to read again); its limits show the
 * minute's creations, and its advance button turns the clock so that they are back to zero; its faults
 * and reset buttons act on the sandbox. No wait depends on the machine's speed: every wait is for
 * something the page shows, bounded only against a hang.
 */
import * as CoreClock from "@community-api/core/Clock"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Browser, Page } from "playwright-core"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { launch } from "./browserSupport.js"
import { sandboxOnPort } from "./portSupport.js"

/** 2026-01-01T00:00:00Z, 03:00 in Moscow: a creation day starts here. */
const newYear = Date.UTC(2026, 0, 1)
const owner = DemoFixture.tokens.owner
const ownerId = DemoFixture.userIds.owner
const controlToken = ReferenceServer.demoControlToken
/** How long a wait for the page may take before the test calls it a hang. */
const hang = 15_000

describe("the sandbox's page", () => {
  // The per-second rate on the real time, as the sandbox's `--clock manual` has it: the clock stands still.
  const sandbox = sandboxOnPort({ clock: CoreClock.manual(newYear), rateClock: CoreClock.system })
  const origin = () => sandbox.baseUrl().replace(/\/external-api\/v2$/, "")
  let browser: Browser

  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })

  /** An operation of the API with the owner's token, as a service would call it; the answer's body. */
  const api = async (operation: string, params: Record<string, unknown> = {}): Promise<any> => {
    const response = await fetch(`${sandbox.baseUrl()}/${operation}`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner}`, "content-type": "application/json" },
      body: JSON.stringify(params)
    })
    return response.json()
  }

  /** A control route as curl calls it; the `response` of its answer. */
  const controlRoute = async (route: string): Promise<any> => {
    const response = await fetch(`${origin()}/_sandbox/${route}`, {
      headers: { authorization: `Bearer ${controlToken}` }
    })
    const body = (await response.json()) as any
    expect(body.status, JSON.stringify(body)).toBe("ok")
    return body.response
  }

  /** A new tab on the page, its console errors and its refused policies collected. */
  const open = async (path = "/_sandbox/") => {
    const page = await browser.newPage()
    const problems: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text())
    })
    page.on("pageerror", (error) => problems.push(error.message))
    const response = await page.goto(`${origin()}${path}`)
    return { page, problems, response }
  }

  const signIn = async (page: Page, token: string) => {
    await page.locator("#token").fill(token)
    await page.locator("#connect").click()
  }

  const text = (page: Page, selector: string) => page.locator(selector).innerText()

  /** The minute's cell of a user in the limits table. */
  const minuteOf = (page: Page, user: number) => text(page, `#limits tr[data-user="${user}"] td:nth-child(3)`)

  it("is served without the control token, under a strict policy, with no secret in it", async () => {
    for (const path of ["/_sandbox/", "/_sandbox"]) {
      const response = await fetch(`${origin()}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const policy = response.headers.get("content-security-policy") ?? ""
      expect(policy).toContain("default-src 'none'")
      expect(policy).toContain("script-src 'self'")
      expect(policy).toContain("connect-src 'self'")
      expect(policy).not.toContain("unsafe")
      const html = await response.text()
      expect(html).toContain(`<script src="/_sandbox/page.js" defer></script>`)
      // No inline script or style: the policy would refuse them.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/)
      expect(html).not.toMatch(/<style|\sstyle=/)
      expect(html).not.toContain(controlToken)
    }
    for (const [asset, type] of [["page.js", "text/javascript"], ["page.css", "text/css"]] as const) {
      const response = await fetch(`${origin()}/_sandbox/${asset}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toBe(`${type}; charset=utf-8`)
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    }
    // Anything else under /_sandbox/ is no page: the API's error 1.
    const other = (await (await fetch(`${origin()}/_sandbox/other.js`)).json()) as any
    expect(other.error_code).toBe(1)
  })

  it("asks for the control token once and keeps it for the tab only", async () => {
    const { page, problems, response } = await open()
    expect(response?.headers()["content-security-policy"]).toContain("default-src 'none'")
    await page.locator("#login").waitFor({ timeout: hang })
    expect(await page.locator("#board").isHidden()).toBe(true)

    await signIn(page, "not-the-control-token")
    await expect.poll(() => text(page, "#login-error"), { timeout: hang }).toBe("Неверный токен управления песочницей")
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)

    await signIn(page, controlToken)
    await page.locator("#board").waitFor({ timeout: hang })
    await expect.poll(() => text(page, "#clock-time"), { timeout: hang }).toBe("2026-01-01 00:00:00.000 UTC")
    // The token field is emptied: the token is in the tab's storage, not in the page.
    expect(await page.locator("#token").inputValue()).toBe("")
    expect(await page.content()).not.toContain(controlToken)

    // Read again, the page does not ask; another tab does.
    await page.reload()
    await page.locator("#board").waitFor({ timeout: hang })
    expect(await page.locator("#login").isHidden()).toBe(true)
    const other = await open()
    await other.page.locator("#login").waitFor({ timeout: hang })
    await other.page.close()

    await page.locator("#forget").click()
    await page.locator("#login").waitFor({ timeout: hang })
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
    await page.close()
    // The refused token's 4 is the page's only problem: no script error, no refused policy.
    expect(problems.filter((problem) => !problem.includes("status of"))).toEqual([])
  })

  it("shows the calls in the journal, the minute's creations in the limits, and resets them with advance", async () => {
    const { page, problems } = await open()
    await signIn(page, controlToken)
    await page.locator("#board").waitFor({ timeout: hang })
    // On the real clock the form is not shown; here the clock is manual.
    await page.locator("#advance-form").waitFor({ timeout: hang })

    expect((await api("users/me")).status).toBe("ok")
    const rows = page.locator("#journal tbody tr")
    await rows.filter({ hasText: "users/me" }).first().waitFor({ timeout: hang })
    expect(await rows.filter({ hasText: "users/me" }).first().innerText()).toContain(String(ownerId))

    for (let index = 1; index <= 20; index++) {
      const created = await api("vars/create", { ...DemoFixture.mainCommunity, title: "Т", name: `page_${index}` })
      expect(created.status, JSON.stringify(created)).toBe("ok")
    }
    const refused = await api("vars/create", { ...DemoFixture.mainCommunity, title: "Т", name: "page_21" })
    expect(refused.error_code).toBe(5)

    const creations = rows.filter({ hasText: "vars/create" })
    await expect.poll(() => creations.count(), { timeout: hang }).toBe(21)
    // Newest first: the refused 21st on top, its name shown, no token anywhere.
    const newest = await creations.first().innerText()
    expect(newest).toContain("error 5")
    expect(newest).toContain("page_21")
    expect(await creations.nth(1).innerText()).toContain("page_20")
    const content = await page.content()
    expect(content).not.toContain(owner)
    expect(content).not.toContain(controlToken)

    await expect.poll(() => minuteOf(page, ownerId), { timeout: hang }).toMatch(/^20 \/ 20\s/)
    expect(await page.locator(`#limits tr[data-user="${ownerId}"] td:nth-child(3)`).getAttribute("class")).toBe("full")

    expect(await page.locator("#advance-seconds").inputValue()).toBe("60")
    await page.locator("#advance").click()
    await expect.poll(() => text(page, "#clock-time"), { timeout: hang }).toBe("2026-01-01 00:01:00.000 UTC")
    await expect.poll(() => minuteOf(page, ownerId), { timeout: hang }).toMatch(/^0 \/ 20\s/)
    expect(await text(page, `#limits tr[data-user="${ownerId}"] td:nth-child(4)`)).toMatch(/^20 \/ 200\s/)
    expect((await controlRoute("clock")).time).toBe("2026-01-01T00:01:00.000Z")

    // The next minute takes a creation again, and the journal shows it.
    const next = await api("vars/create", { ...DemoFixture.mainCommunity, title: "Т", name: "page_22" })
    expect(next.status, JSON.stringify(next)).toBe("ok")
    await expect.poll(() => creations.first().innerText(), { timeout: hang }).toContain("page_22")
    expect(await creations.first().getAttribute("data-outcome")).toBe("ok")
    await page.close()
    expect(problems).toEqual([])
  })

  it("turns faults on and off, and resets the sandbox", async () => {
    const { page, problems } = await open()
    await signIn(page, controlToken)
    await page.locator("#board").waitFor({ timeout: hang })
    await expect.poll(() => text(page, "#faults-state"), { timeout: hang }).toBe("off")

    await page.getByRole("button", { name: "Latency 300 ms" }).click()
    await page.locator("#faults-apply").click()
    await expect.poll(() => controlRoute("faults"), { timeout: hang }).toEqual({ latency: { fixed: 300 } })
    await expect.poll(() => text(page, "#faults-state"), { timeout: hang }).toBe(`{"latency":{"fixed":300}}`)

    // Settings that do not decode: the sandbox's own line, and the faults as they were.
    await page.locator("#faults-text").fill(`{"latency":{"fixed":-1}}`)
    await page.locator("#faults-apply").click()
    await expect.poll(() => text(page, "#message"), { timeout: hang }).toContain("faults: latency.fixed")
    expect(await controlRoute("faults")).toEqual({ latency: { fixed: 300 } })

    await page.locator("#faults-off").click()
    await expect.poll(() => controlRoute("faults"), { timeout: hang }).toEqual({})
    await expect.poll(() => text(page, "#faults-state"), { timeout: hang }).toBe("off")

    // Reset: the journal and the counters afresh, the created variables gone.
    expect(await page.locator("#journal tbody tr").count()).toBeGreaterThan(0)
    expect(JSON.stringify(await api("vars/list", DemoFixture.mainCommunity))).toContain(`"page_1"`)
    await page.locator("#reset").click()
    await expect.poll(() => page.locator("#journal tbody tr").count(), { timeout: hang }).toBe(0)
    await page.locator("#limits-empty").waitFor({ timeout: hang })
    expect((await controlRoute("requests")).entries).toEqual([])
    const variables = await api("vars/list", DemoFixture.mainCommunity)
    expect(variables.status).toBe("ok")
    expect(JSON.stringify(variables)).not.toContain(`"page_1"`)
    await page.close()
    expect(problems).toEqual([])
  })

  it("under a tenant's prefix, shows the tenant's world only", async () => {
    const { page, problems } = await open("/_tenants/page-w1/_sandbox/")
    await signIn(page, controlToken)
    await page.locator("#board").waitFor({ timeout: hang })
    expect(await text(page, "#world")).toBe("tenant page-w1")
    await api("users/me")
    const inTenant = await fetch(`${sandbox.baseUrl()}/vars/list`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${owner}`,
        "content-type": "application/json",
        "x-sandbox-tenant": "page-w1"
      },
      body: JSON.stringify(DemoFixture.mainCommunity)
    })
    expect(((await inTenant.json()) as any).status).toBe("ok")
    const rows = page.locator("#journal tbody tr")
    await rows.filter({ hasText: "vars/list" }).waitFor({ timeout: hang })
    // The call of the sandbox's own world is in its journal, not in the tenant's.
    expect((await controlRoute("requests?operation=users/me")).entries.length).toBe(1)
    expect(await rows.count()).toBe(1)
    await page.close()
    expect(problems).toEqual([])
  })
})
