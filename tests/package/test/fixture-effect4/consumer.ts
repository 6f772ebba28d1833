// Type-checked inside the scratch project with the strictest settings a user may have (tsconfig.json
// here): the published declarations of the Effect 4 packages must compile, and they must carry real
// types, not `any` (the `@ts-expect-error` lines fail the check if they do).
import { DemoData } from "@community-api/core"
import { type ClientError, CommunityApiClient } from "@community-api/effect4-client"
import { type Operation, Operations } from "@community-api/effect4-schema"
import { ReferenceServer } from "@community-api/effect4-server"
import { Duration, Effect, Fiber, Layer, Redacted, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { TestClock } from "effect/testing"

export const config: CommunityApiClient.ClientConfig = {
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(DemoData.tokens.owner),
  auth: "header"
}

export const params: Operation.Params<typeof Operations.vars.create> = Schema.decodeUnknownSync(
  Operations.vars.create.payload
)({ group_id: "123", channel: "vk", title: "Город", name: "city" })

export const userId: Effect.Effect<number, Operation.Error<typeof Operations.users.me> | ClientError.ClientError> =
  Effect.gen(function*() {
    const client = yield* CommunityApiClient.CommunityApiClient
    const fiber = yield* Effect.forkChild(client.users.me())
    yield* TestClock.adjust(Duration.seconds(1))
    const me = yield* Fiber.join(fiber)
    // @ts-expect-error the user id is a number
    const _wrong: string = me.user_id
    return me.user_id
  }).pipe(Effect.provide(CommunityApiClient.layer(config).pipe(Layer.provide(ReferenceServer.layerTest()))))

export const overFetch: Layer.Layer<CommunityApiClient.CommunityApiClient> = CommunityApiClient.layer(config).pipe(
  Layer.provide(FetchHttpClient.layer)
)

// @ts-expect-error a bot id is no number
export const wrongId: Operation.Params<typeof Operations.bots.getById> = { bot_id: 42 }
