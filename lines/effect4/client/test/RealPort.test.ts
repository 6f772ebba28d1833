/**
 * (The Effect 4 line's port of the Effect 3 line's suite of the same name.)
 *
 * The client over a real loopback port: this line's reference server behind `node:http`
 * (`support/RealPortServer.ts`), each client over fetch (`effect/http`) and over undici
 * (`@effect/platform-node`), the token in the header and in the body, as on the Effect 3 line.
 */
import * as Demo from "@community-api/core/DemoData"
import { Ids } from "@community-api/effect4-schema"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { describe, expect, layer } from "@effect/vitest"
import { Effect, Layer, Redacted, Schedule, Schema, Stream } from "effect"
import { FetchHttpClient } from "effect/http"
import type { HttpClient } from "effect/http"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import * as RealPortServer from "./support/RealPortServer.js"

const main = {
  group_id: Schema.decodeSync(Ids.GroupId)(Demo.mainCommunity.group_id),
  channel: Demo.mainCommunity.channel
}

const implementations: ReadonlyArray<readonly [string, Layer.Layer<HttpClient.HttpClient>]> = [
  ["fetch", FetchHttpClient.layer],
  ["undici", NodeHttpClient.layerUndici]
]

/**
 * Runs `f` with a client of the server on its real port, over `http`. The `HttpClient` layer stays
 * open while `f` runs (undici's dispatcher closes with its scope). The limiters are the suite's, so
 * that all of its clients together stay under the server's rate limit.
 */
const withClient = <A, E, R>(
  http: Layer.Layer<HttpClient.HttpClient>,
  auth: CommunityApiClient.AuthMode,
  f: (client: CommunityApiClient.Client) => Effect.Effect<A, E, R>,
  token: string = Demo.tokens.owner
) =>
  Effect.gen(function*() {
    const { baseUrl } = yield* RealPortServer.RealPort
    return yield* CommunityApiClient.make({
      baseUrl,
      token: Redacted.make(token),
      auth,
      // No delays: nothing in this suite may wait on the clock.
      retry: { schedule: Schedule.recurs(3) }
    }).pipe(Effect.flatMap(f))
  }).pipe(Effect.provide(http))

// Live clock: the server and the client run on real time, as over a real port they must; nothing sleeps.
const suite = Layer.mergeAll(RealPortServer.layer(), Pacing.layer(), CreationQuota.layer())

layer(suite, { excludeTestServices: true })("Over a real port", (it) => {
  for (const [name, http] of implementations) {
    for (const auth of ["header", "body"] as const) {
      describe(`${name} client, token in the ${auth}`, () => {
        it.effect(`C1 C4 A1 A2 E1 users/me answers over ${name} with the token in the ${auth}`, () =>
          withClient(http, auth, (client) =>
            Effect.gen(function*() {
              expect((yield* client.users.me()).user_id).toBe(Demo.userIds.owner)
            })))

        it.effect(`E4 C12 bots/get streams 640 bots in two pages over ${name} (${auth})`, () =>
          withClient(http, auth, (client) =>
            Effect.gen(function*() {
              const bots = yield* Stream.runCollect(client.streams.bots.get(main))
              expect(bots.length).toBe(Demo.mainBotCount)
            })))

        it.effect(`E11 E10 vars/create then vars/list over ${name} (${auth})`, () =>
          withClient(http, auth, (client) =>
            Effect.gen(function*() {
              const created = yield* client.vars.create({ ...main, title: "Проверка", name: `smoke_${name}_${auth}` })
              const listed = yield* client.vars.list({ ...main, count: 500 })
              expect(listed.items.map((v) => v.id)).toContain(created.id)
            })))

        it.effect(`E6 A4 X1 typed errors over ${name} (${auth}): 7 for a missing bot, 4 for a revoked token`, () =>
          Effect.gen(function*() {
            const missing = yield* withClient(
              http,
              auth,
              (client) => Effect.flip(client.bots.enable({ bot_id: "f".repeat(24) as never }))
            )
            expect(missing._tag).toBe("InvalidParameterError")
            const error = yield* withClient(http, auth, (client) => Effect.flip(client.users.me()), Demo.tokens.revoked)
            expect(error._tag).toBe("InvalidTokenError")
            expect(error.message).not.toContain(Demo.tokens.revoked)
          }))

        it.effect(`A6 X1 error 9 and a dropped connection are retried over ${name} (${auth})`, () =>
          withClient(http, auth, (client) =>
            Effect.gen(function*() {
              const { server } = yield* RealPortServer.RealPort
              yield* server.setFaults({ keyServiceUnavailable: { next: 2 } })
              expect((yield* client.users.me()).user_id).toBe(Demo.userIds.owner)
              yield* server.setFaults({ dropConnection: { next: 1, paths: ["users/me"] } })
              expect((yield* client.users.me()).user_id).toBe(Demo.userIds.owner)
              yield* server.clearFaults
            })))
      })
    }
  }
})
