// A plain Node ESM program over the installed Effect 4 tarballs: the client calls the sandbox at the
// base URL given as the first argument with the demo owner's token, and prints as JSON the decoded
// `users/me` and the tag and code of the typed error of a bot that does not exist.
import { DemoData } from "@community-api/core"
import { CommunityApiClient } from "@community-api/effect4-client"
import { Ids } from "@community-api/effect4-schema"
import { Effect, Layer, Redacted, Schema } from "effect"
import { FetchHttpClient } from "effect/http"

const ClientLive = CommunityApiClient.layer({
  baseUrl: process.argv[2],
  token: Redacted.make(DemoData.tokens.owner)
}).pipe(Layer.provide(FetchHttpClient.layer))

const program = Effect.gen(function*() {
  const client = yield* CommunityApiClient.CommunityApiClient
  const me = yield* client.users.me()
  const bot_id = Schema.decodeSync(Ids.BotId)("0123456789abcdef01234567")
  const missing = yield* Effect.flip(client.bots.getById({ bot_id }))
  return { me, missing: { tag: missing._tag, code: "code" in missing ? missing.code : undefined } }
})

console.log(JSON.stringify(await Effect.runPromise(program.pipe(Effect.provide(ClientLive)))))
