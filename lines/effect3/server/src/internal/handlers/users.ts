/**
 * `users/*`: the account check (E1).
 *
 * @internal
 */
import { Effect } from "effect"
import type { SectionHandlers } from "../handler.js"

export const users: SectionHandlers<"users"> = {
  me: (_, ctx) =>
    Effect.succeed({
      user_id: ctx.caller.user_id,
      auth: ctx.caller.kind === "accountKey"
        ? "account_key"
        : ctx.caller.kind === "application"
        ? "application_token"
        : "personal_token",
      client_id: ctx.caller.client_id
    })
}
