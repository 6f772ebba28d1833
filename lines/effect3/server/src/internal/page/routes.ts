/**
 * The routes of the sandbox's page: `GET /_sandbox/` (and `/_sandbox`) answers the HTML, and
 * `/_sandbox/page.js`, `/_sandbox/page.css` and `/_sandbox/favicon.svg` what it loads. They take no
 * control token: the page holds no secret, and every call its script makes carries the token the user
 * gives it. Each answer carries a strict Content-Security-Policy (this origin only, no inline script
 * or style, no frames, no form posted anywhere), so that nothing a caller put in the journal can run
 * in the page, and the page cannot be framed.
 *
 * @internal
 */
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { html } from "./html.js"
import { script } from "./script.js"
import { style } from "./style.js"

/** The policy of every answer of the page. */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'"
].join("; ")

const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">` +
  `<rect width="16" height="16" rx="3" fill="#2f6fde"/><path d="M4 11h8M4 8h8M4 5h5" stroke="#fff" stroke-width="1.6"/></svg>`

/** A text answer of the page, made once: the texts never change while the server runs. */
const answer = (body: string, contentType: string) => {
  const response = HttpServerResponse.text(body, {
    contentType,
    headers: {
      "content-security-policy": contentSecurityPolicy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-cache"
    }
  })
  return Effect.succeed(response)
}

const page = answer(html, "text/html; charset=utf-8")

/** Adds the page's routes to `router`. */
export const routes = <E, R>(router: HttpRouter.HttpRouter<E, R>): HttpRouter.HttpRouter<E, R> =>
  router.pipe(
    HttpRouter.get("/_sandbox", page),
    HttpRouter.get("/_sandbox/", page),
    HttpRouter.get("/_sandbox/page.js", answer(script, "text/javascript; charset=utf-8")),
    HttpRouter.get("/_sandbox/page.css", answer(style, "text/css; charset=utf-8")),
    HttpRouter.get("/_sandbox/favicon.svg", answer(icon, "image/svg+xml"))
  )
