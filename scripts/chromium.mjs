/**
 * The browser of the server page's test and of its screenshots: Debian's `chromium`, driven by
 * `playwright-core` (which downloads no browser of its own). `CHROMIUM_PATH` names another executable.
 *
 *   node scripts/chromium.mjs    makes sure the browser is there and prints its path
 *
 * When it is missing, Debian's `chromium` package is installed with `apt-get` where that is possible (as
 * root), and otherwise the line names the package to install. The server's test of the page calls it.
 */
import { ensureProgram, runAsCommand } from "./debian.mjs"

/** The path of the browser: `CHROMIUM_PATH`, else the system's Chromium, installed first when possible. */
export const ensureChromium = () => {
  const given = process.env.CHROMIUM_PATH
  if (given !== undefined && given !== "") return given
  return ensureProgram(["chromium", "chromium-browser", "google-chrome"], "chromium")
}

runAsCommand(import.meta.url, ensureChromium)
