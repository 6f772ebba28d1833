/**
 * The browser of the page's test and of the screenshots: the system's Chromium (Debian's `chromium`)
 * driven by `playwright-core`, which downloads no browser of its own. `--no-sandbox`: the tests may run as root in a container,
 * where Chromium's own sandbox cannot start; the page it opens is our own, on loopback.
 */
import type { Browser } from "playwright-core"
import { chromium } from "playwright-core"
import { ensureChromium } from "../../../../scripts/chromium.mjs"

/**
 * A headless Chromium (`CHROMIUM_PATH`, else the system's, installed first when it can be: see
 * `scripts/chromium.mjs`); the caller closes it.
 */
export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: ensureChromium(), headless: true, args: ["--no-sandbox"] })
