/**
 * Takes the screenshots of the sandbox's page shown in `docs/server.md`, into `docs/images/`:
 * the sign-in, and the page after a test's calls (a call of `users/me`, twenty creations and a
 * twenty-first refused, a fault on), on a sandbox whose clock is turned by hand from a fixed instant,
 * so that the pictures show the same sandbox times on every run.
 *
 *   npx tsx scripts/screenshots.ts     (from lines/effect3/server; Debian's chromium, or CHROMIUM_PATH)
 *
 * A script and not a test: a test run leaves the tree as it was.
 */
import * as CoreClock from "@community-api/core/Clock"
import { HttpServer } from "@effect/platform"
import { Effect, ManagedRuntime } from "effect"
import * as Fs from "node:fs"
import * as Path from "node:path"
import { fileURLToPath } from "node:url"
import * as DemoFixture from "../src/DemoFixture.js"
import * as ReferenceServer from "../src/ReferenceServer.js"
import { launch } from "../test/browserSupport.js"

const images = fileURLToPath(new URL("../../../../docs/images/", import.meta.url))
const controlToken = ReferenceServer.demoControlToken

const main = async () => {
  const runtime = ManagedRuntime.make(ReferenceServer.layerServe({
    port: 0,
    // Every time on the turned clock, the per-second rate too (its 24 requests are under 30).
    clock: CoreClock.manual(Date.UTC(2026, 0, 1, 9, 30))
  }))
  const browser = await launch()
  try {
    const address = await runtime.runPromise(Effect.map(HttpServer.HttpServer, (server) => server.address))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    const origin = `http://127.0.0.1:${address.port}`
    const api = (operation: string, params: Record<string, unknown> = {}) =>
      fetch(`${origin}/external-api/v2/${operation}`, {
        method: "POST",
        headers: { authorization: `Bearer ${DemoFixture.tokens.owner}`, "content-type": "application/json" },
        body: JSON.stringify(params)
      })
    Fs.mkdirSync(images, { recursive: true })

    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } })
    await page.goto(`${origin}/_sandbox/`)
    await page.locator("#login").waitFor()
    await page.screenshot({ path: Path.join(images, "sandbox-page-sign-in.png") })

    await page.locator("#token").fill(controlToken)
    await page.locator("#connect").click()
    await page.locator("#board").waitFor()
    await api("users/me")
    await api("vars/list", DemoFixture.mainCommunity)
    for (let index = 1; index <= 21; index++) {
      await api("vars/create", { ...DemoFixture.mainCommunity, title: "Скидка", name: `discount_${index}` })
    }
    await page.locator("#faults-text").fill(`{"latency":{"fixed":300}}`)
    await page.locator("#faults-apply").click()
    // The page reads every second: wait until it shows the refused creation and the full minute.
    await page.locator("#journal tbody tr", { hasText: "error 5" }).waitFor()
    await page.locator(`#limits tr[data-user="${DemoFixture.userIds.owner}"] td.full`).waitFor()
    await page.screenshot({ path: Path.join(images, "sandbox-page.png"), fullPage: true })
    console.log(`screenshots in ${images}`)
  } finally {
    await browser.close()
    await runtime.dispose()
  }
}

void main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
