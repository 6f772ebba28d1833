import { tokens } from "@community-api/core/DemoData"
import { Dates } from "@community-api/schema"
import { GroupId, ListId, Uid, VariableId } from "@community-api/schema/Ids"
import * as Demo from "@community-api/server/DemoFixture"
import * as ReferenceServer from "@community-api/server/ReferenceServer"
import { describe, expect, it } from "@effect/vitest"
import { DateTime, Effect, Layer, Redacted, Schema } from "effect"
import suite from "../../../../tests/client-behaviour/scenarios/Operations.js"
import * as CommunityApiClient from "../src/CommunityApiClient.js"
import * as CreationQuota from "../src/CreationQuota.js"
import * as Pacing from "../src/Pacing.js"
import { run } from "./support/Driver.js"

run(suite)

const main = { group_id: GroupId.make(Demo.mainCommunity.group_id), channel: Demo.mainCommunity.channel }
const uid = Uid.make(Demo.subscriberUid)
const Client = CommunityApiClient.CommunityApiClient

/** A client of the demo owner over the reference server in process, with fresh limiters. */
const reference = CommunityApiClient.layer({
  baseUrl: ReferenceServer.inProcessBaseUrl,
  token: Redacted.make(tokens.owner)
}).pipe(Layer.provideMerge(Layer.mergeAll(ReferenceServer.layerTest(), Pacing.layer(), CreationQuota.layer())))

// The caller's schemas are this line's `Schema` values.
describe("Operations against the reference server", () => {
  it.effect("E17 C5 call decodes with a caller's schemas, and gives undefined when there is no response field", () =>
    Effect.gen(function*() {
      const client = yield* Client
      const ListWire = Schema.Struct({ id: ListId, name: Schema.String, create_at: Dates.UnixSeconds })
      const created = yield* client.call("lists/create", { ...main, name: "Гости" }, {
        success: ListWire,
        payload: Schema.Struct({ group_id: GroupId, channel: Schema.String, name: Schema.String })
      })
      expect(created.name).toBe("Гости")
      expect(DateTime.isDateTime(created.create_at)).toBe(true)
      const wrong = yield* Effect.flip(client.call("users/me", {}, { success: ListWire }))
      expect(wrong._tag).toBe("ResponseDecodeError")
      const set = yield* client.call("vars/set", { var_id: Demo.variableId, uid, value: "латте" })
      expect(set).toBeUndefined()
      expect((yield* client.vars.get({ var_id: VariableId.make(Demo.variableId), uid })).value).toBe("латте")
    }).pipe(Effect.provide(reference)))
})
