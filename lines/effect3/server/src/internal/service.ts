/**
 * The public service of one engine: its controls and its HTTP app, every member a plain value over the
 * engine, so that a service rebuilt from them (a control wrapped, say) still serves the same state.
 *
 * @internal
 */
import { Effect } from "effect"
import * as Faults from "../Faults.js"
import type { Service } from "../ReferenceServer.js"
import * as App from "./app.js"
import type { Engine } from "./engine.js"

/** The service of `engine`. */
export const make = (engine: Engine): Service => {
  let issued = 0
  return {
    reset: engine.reset(),
    load: (fixture) => engine.load(fixture),
    setFaults: (faults) => engine.setFaults(faults),
    clearFaults: engine.setFaults(Faults.none),
    faults: Effect.sync(() => engine.faultSettings()),
    snapshot: engine.snapshot(),
    revokeToken: (token) =>
      engine.modify((store) => {
        const found = store.tokens.get(token)
        if (found !== undefined) found.revoked = true
      }),
    issueToken: (issue) =>
      Effect.flatMap(engine.now(), (now) =>
        engine.modify((store) => {
          const kind = issue.kind ?? "personal"
          const serial = `${(++issued).toString(16).padStart(8, "0")}${now.toString(16).padStart(12, "0")}`
          const token = kind === "accountKey"
            ? `acc${serial}`
            : `${kind === "application" ? "tha_" : "thp_"}issued${serial}`
          store.tokens.set(token, {
            token,
            user_id: issue.user_id,
            kind,
            product: issue.product ?? "this",
            client_id: issue.client_id ?? (kind === "application" ? "app-issued" : "personal"),
            validity: issue.validity ?? "none",
            issued_at: Math.floor(now / 1000),
            revoked: false
          })
          return token
        })),
    requestCount: Effect.sync(() => engine.requestCount()),
    recentRequests: Effect.sync(() => engine.recentRequests()),
    journal: (filter) => Effect.sync(() => engine.journal(filter ?? {})),
    clearJournal: Effect.sync(() => engine.clearJournal()),
    limits: (user) => Effect.map(engine.limits(user), (limits) => limits.users),
    app: App.make(engine)
  }
}
