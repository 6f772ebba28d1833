/**
 * The tenants' control routes: `GET /_sandbox/tenants` (their names and the bound) and `DELETE
 * /_sandbox/tenants/{name}` (drops one, with its world). Asked of the sandbox itself: a tenant's own
 * world holds no tenants.
 *
 * @internal
 */
import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import * as ControlAnswers from "./controlAnswers.js"
import type { Engine } from "./engine.js"
import * as Tenants from "./tenants.js"

/** `GET /_sandbox/tenants`. */
export const list = (engine: Engine) =>
  Effect.sync(() =>
    engine.tenants === undefined
      ? ControlAnswers.refused(6, Tenants.notHere)
      : ControlAnswers.ok({ max: Tenants.maxTenants, tenants: engine.tenants.names() })
  )

/** `DELETE /_sandbox/tenants/{name}`. */
export const drop = (engine: Engine) =>
  Effect.map(HttpRouter.params, (params) => {
    if (engine.tenants === undefined) return ControlAnswers.refused(6, Tenants.notHere)
    const name = params["name"] ?? ""
    return engine.tenants.drop(name)
      ? ControlAnswers.ok({ dropped: name })
      : ControlAnswers.refused(7, Tenants.unknown(name))
  })
